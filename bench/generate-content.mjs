// bench/generate-content.mjs
// Synthetic content in the real shape of indexer-1.2.0-r2, scaled: at scale 1 about 540 extensions, 490 icon files
// (real tiny PNGs) and 13 versions; at scale s, s times as many of each. Deterministic: the same scale gives the
// same bytes and the same modification times, so builds of it are reproducible.
// I/O: writes the content folder (and, through cachedContent, its cache under $TMPDIR).
//
// Usage: node bench/generate-content.mjs <scale> <dir>      (writes <dir>, which must not exist or be empty)
//        import { generateContent, cachedContent } from "./generate-content.mjs"

import { existsSync } from "node:fs";
import { mkdir, readdir, rm, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { squarePng } from "../scripts/tiny-png.mjs";
import { prng } from "../scripts/prng.mjs";

/** Bump when the generated shape changes: cached content of another version is regenerated. */
export const GENERATOR_VERSION = 2;

/** Counts at scale 1 (indexer-1.2.0-r2: 534 extensions in extensionMap, 542 in icons.json, 487 icon files, 13 versions). */
export const BASE = { extensions: 540, icons: 490, versions: 13 };

/** Every generated file gets this modification time (2025-01-01 00:00:00 UTC). */
const MTIME = new Date("2025-01-01T00:00:00Z");

const STEMS = [
  "php",
  "js",
  "md",
  "txt",
  "py",
  "ps",
  "html",
  "css",
  "json",
  "rar",
  "zip",
  "yml",
  "conf",
  "ini",
  "bat",
  "sh",
  "png",
  "jpg",
  "mp",
  "flac",
  "pdf",
  "sql",
  "xml",
  "log",
  "env",
  "doc",
  "xls",
  "exe",
  "iso",
  "gif",
  "webp",
  "ada",
  "asm",
  "c",
  "clj",
  "cob",
  "coffee",
  "cpp",
  "cs",
  "dart",
  "elm",
  "f",
  "go",
  "groovy",
  "hs",
  "java",
  "kt",
  "less",
  "lisp",
  "lua",
  "ml",
  "pas",
  "pl",
  "rb",
  "rs",
  "sass",
  "scala",
  "scm",
  "swift",
  "ts",
  "vb",
  "vue",
  "toml",
  "plist",
  "db",
  "avro",
  "rtf",
  "odt",
  "tex",
  "epub",
  "svg",
  "psd",
  "tiff",
  "bmp",
  "ico",
  "aac",
  "ogg",
  "opus",
  "mov",
  "webm",
  "gz",
  "xz",
  "deb",
  "rpm",
  "dll",
  "so",
  "vim",
  "tcl",
  "cfg",
  "key",
  "pem",
  "crt",
  "cert",
  "jks",
  "service",
  "socket",
  "timer",
  "cache",
  "dump",
  "trace",
  "lock",
  "npm",
  "pip",
  "gem",
  "cargo",
  "nix",
  "snap",
  "yarn",
  "graphql",
  "prisma",
  "proto",
];
const WORDS = [
  "config",
  "build",
  "docker",
  "compose",
  "lint",
  "test",
  "spec",
  "data",
  "cache",
  "source",
  "map",
  "bundle",
  "module",
  "package",
  "project",
  "workspace",
  "template",
  "theme",
  "plugin",
  "report",
  "schema",
  "backup",
  "archive",
  "font",
  "image",
  "audio",
  "video",
  "shader",
  "model",
  "scene",
  "level",
  "save",
  "patch",
  "diff",
  "props",
  "rules",
  "policy",
];
const ICON_KINDS = ["file", "document", "config", "archive", "image", "source", "data", "template", "script", "icon"];

/** N unique extensions in the safe charset (lowercase letters, digits, dashes, dots), realistic-looking. */
export function makeExtensions(n, random) {
  const out = new Set();
  let i = 0;
  while (out.size < n) {
    const stem = STEMS[i % STEMS.length];
    const round = Math.floor(i / STEMS.length);
    let name;
    if (round === 0) name = stem;
    else {
      const r = random();
      const word = WORDS[Math.floor(random() * WORDS.length)];
      if (r < 0.55) name = `${stem}${round}`;
      else if (r < 0.75) name = `${word}-${stem}${round}`;
      else if (r < 0.9) name = `${stem}.${word}${round}`;
      else name = `${word}${round}.${stem}`;
    }
    out.add(name);
    i++;
  }
  return [...out];
}

/** K version strings in the manifest's style ("1.0", "1.1.10", "1.2.0-r1"), ascending, unique. */
export function makeVersions(k) {
  const out = [];
  for (let i = 0; out.length < k; i++) {
    const major = 1 + Math.floor(i / 400);
    const minor = Math.floor((i % 400) / 20);
    const patch = i % 20;
    out.push(
      patch === 0
        ? `${major}.${minor}`
        : patch < 15
          ? `${major}.${minor}.${patch}`
          : `${major}.${minor}.${patch - 15}-r${patch - 15}`,
    );
  }
  return [...new Set(out)].slice(0, k);
}

const json = (value) => `${JSON.stringify(value, null, 4)}\n`;

/** The icon files' names: a few fixed names the answers rely on, then one per "kind of file". */
function makeIconNames(extensions, nIcons, random) {
  const iconNames = ["non-descript-default-file.png", "folder.png", "text.png"];
  for (let i = 0; iconNames.length < nIcons; i++) {
    const ext = extensions[i % extensions.length];
    const kind = ICON_KINDS[Math.floor(random() * ICON_KINDS.length)];
    const name = `${ext.replace(/\./g, "-")}-${kind}${i >= extensions.length ? `-${Math.floor(i / extensions.length)}` : ""}.png`;
    if (!iconNames.includes(name)) iconNames.push(name);
  }
  return iconNames;
}

/** icons.json: every extension → an icon file (a few point to missing files, as in the real data). */
function makeIconMap(extensions, iconNames) {
  const iconMap = { file: "non-descript-default-file.png", folder: "folder.png" };
  extensions.forEach((ext, i) => {
    iconMap[ext] = i === 96 ? `missing-${ext.replace(/\./g, "-")}.png` : iconNames[3 + (i % (iconNames.length - 3))];
  });
  return iconMap;
}

/** extensionMap.json: indexing and viewing, each over (almost) every extension; several extensions share a setting. */
function makeExtensionMap(extensions) {
  const setting = (ext) => ext.replace(/[.-]/g, "_").replace(/\d+$/, "");
  const indexing = {};
  const viewing = {};
  extensions.forEach((ext, i) => {
    if (i % 50 !== 49) indexing[ext] = `index_${setting(ext)}`;
    if (i % 50 !== 48) viewing[ext] = `view_${setting(ext)}`;
  });
  return { indexing, viewing };
}

/** config.json: a boolean per setting, as the real exclusions / viewable_files. */
function makeConfig({ indexing, viewing }, versions, random) {
  const exclusions = { "index_non-descript-files": true };
  for (const v of Object.values(indexing)) exclusions[v] = random() < 0.9;
  const viewable = { "view_non-descript-files": true };
  for (const v of Object.values(viewing)) viewable[v] = random() < 0.8;
  return {
    version: versions[versions.length - 1],
    main: {
      access_url: "",
      cache_type: "sqlite",
      icon_type: "default",
      disable_file_downloads: false,
      disable_folder_downloads: false,
      max_download_size_folder: "2048 MB",
      max_download_size_file: "2048 MB",
      index_hidden: false,
      index_all: false,
      deny_list: "",
      allow_list: "",
    },
    exclusions,
    viewable_files: viewable,
  };
}

/** config-reference.txt: a property per exclusion, at most 200. */
function makeReference(exclusions) {
  return [
    "Synthetic Indexer - Configuration Reference",
    "=".repeat(42),
    "",
    ...Object.keys(exclusions)
      .slice(0, 200)
      .map((k) => `Property: exclusions.${k}\nType: Boolean\nPurpose: index files handled by ${k}\n`),
  ].join("\n");
}

/** Every file of the content, [relative path, bytes], in the order they are written. */
function contentFiles({ manifest, config, extensionMap, iconMap, reference, iconNames }, random) {
  const files = [
    ["manifest.json", json(manifest)],
    ["config.json", json(config)],
    ["extensionMap.json", json(extensionMap)],
    ["icons.json", json(iconMap)],
    ["config-reference.txt", `${reference}\n`],
    ["icons/app/green.png", squarePng(16, [40, 200, 60, 255])],
    ["icons/app/red.png", squarePng(16, [220, 40, 40, 255])],
  ];
  for (const size of [16, 32, 48, 96, 144, 180, 192])
    files.push([`favicon/${size}x${size}.png`, squarePng(size, [60, 90, 200, 255])]);
  for (let i = 0; i < 22; i++) {
    files.push([
      `style/style-${i}.min.css`,
      `.c${i}{color:#${((i * 123457) % 0xffffff).toString(16).padStart(6, "0")}}\n`.repeat(200),
    ]);
  }
  iconNames.forEach((name, i) => {
    const color = [Math.floor(random() * 256), Math.floor(random() * 256), Math.floor(random() * 256), 255];
    files.push([`icons/${name}`, squarePng(16 + (i % 4) * 8, color, [i % 256, (i >> 8) % 256, 0, 255])]);
  });
  return files;
}

/** Writes the files into `dir` (which must not exist or be empty), with bounded concurrency: ~50k files at scale 100. */
async function writeContent(dir, files) {
  if (existsSync(dir) && (await readdir(dir)).length > 0) throw new Error(`${dir} exists and is not empty.`);
  await mkdir(path.join(dir, "icons", "app"), { recursive: true });
  await mkdir(path.join(dir, "style"), { recursive: true });
  await mkdir(path.join(dir, "favicon"), { recursive: true });
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const [rel, data] = files[next++];
      const abs = path.join(dir, rel);
      await writeFile(abs, data);
      await utimes(abs, MTIME, MTIME);
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
}

/** Writes synthetic content for `scale` (a positive number; 1 ≈ the real fixture) into `dir`. */
export async function generateContent(dir, scale) {
  if (!(scale > 0)) throw new Error(`scale must be a positive number, got ${scale}`);
  // One generator for everything, drawn from in this order: the extensions, the icons' names, the config, the colours.
  const random = prng(0x5eed + Math.round(scale * 1000));
  const nExt = Math.max(4, Math.round(BASE.extensions * scale));
  const nIcons = Math.max(4, Math.round(BASE.icons * scale));
  const nVersions = Math.max(2, Math.round(BASE.versions * scale));
  const extensions = makeExtensions(nExt, random);
  const versions = makeVersions(nVersions);
  const iconNames = makeIconNames(extensions, nIcons, random);
  const iconMap = makeIconMap(extensions, iconNames);
  const extensionMap = makeExtensionMap(extensions);
  const config = makeConfig(extensionMap, versions, random);
  const manifest = {
    base_url: "https://api.example.test",
    service: "Indexer API",
    service_version: versions[versions.length - 1],
    description: `Synthetic content at ${scale}x the real fixture`,
    versions,
  };
  const reference = makeReference(config.exclusions);
  const files = contentFiles({ manifest, config, extensionMap, iconMap, reference, iconNames }, random);
  await writeContent(dir, files);
  return {
    extensions: extensions.length,
    iconMapEntries: Object.keys(iconMap).length,
    icons: iconNames.length,
    versions: versions.length,
    files: files.length,
  };
}

/** Where generated content is cached between benchmark runs (outside the repository). */
export const CACHE_DIR = path.join(os.tmpdir(), "build-index-site-bench");

/** Synthetic content for `scale`, generated once and cached under CACHE_DIR. */
export async function cachedContent(scale) {
  const dir = path.join(CACHE_DIR, `content-x${scale}-v${GENERATOR_VERSION}`);
  const done = `${dir}.done.json`;
  if (existsSync(done)) return dir;
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const counts = await generateContent(dir, scale);
  await writeFile(done, JSON.stringify(counts));
  return dir;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [scale, dir] = process.argv.slice(2);
  if (!scale || !dir) {
    console.error("Usage: node bench/generate-content.mjs <scale> <dir>");
    process.exit(2);
  }
  const counts = await generateContent(path.resolve(dir), Number(scale));
  console.log(`Generated ${dir}: ${JSON.stringify(counts)}`);
}
