// test/docs/doc-text.ts
// Reads the README and docs/ into what the docs tests check: prose units (paragraphs, table rows, list items) and
// fenced code blocks, each with its file and line, and what the text says a build writes or a user runs.

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { REPO } from "../helpers/fixtures.js";

export const DOCS = [
  "README.md",
  ...readdirSync(path.join(REPO, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** A piece of a doc: a paragraph, a table row or list item (`prose`), or a fenced code block (`code`, with its tag). */
export interface Unit {
  doc: string;
  /** 1-based line of the unit's first line (a code block's first line after the fence). */
  line: number;
  kind: "prose" | "code";
  lang: string;
  text: string;
}

/** Splits a Markdown file into units: fenced blocks whole, tables row by row, other text by blank lines. */
export function units(doc: string, text = readFileSync(path.join(REPO, doc), "utf8")): Unit[] {
  const lines = text.split("\n");
  const found: Unit[] = [];
  let prose: string[] = [];
  let proseStart = 0;
  const flush = (): void => {
    if (prose.length > 0) found.push({ doc, line: proseStart, kind: "prose", lang: "", text: prose.join("\n") });
    prose = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = /^\s*```(\S*)/.exec(line);
    if (fence !== null) {
      flush();
      const start = i + 1;
      while (i + 1 < lines.length && !/^\s*```\s*$/.test(lines[i + 1]!)) i++;
      found.push({ doc, line: start + 1, kind: "code", lang: fence[1]!, text: lines.slice(start, i + 1).join("\n") });
      i++;
      continue;
    }
    if (line.trim() === "" || /^\s*\|/.test(line) || /^\s*(?:[-*]|\d+\.)\s/.test(line) || line.startsWith("#")) flush();
    if (line.trim() === "") continue;
    if (prose.length === 0) proseStart = i + 1;
    prose.push(line);
    if (/^\s*\|/.test(line) || line.startsWith("#")) flush();
  }
  flush();
  return found;
}

export const allUnits = (): Unit[] => DOCS.flatMap((doc) => units(doc));

/** The line of a unit on which `needle` first stands. */
export function lineOf(unit: Unit, needle: string): number {
  const at = unit.text.indexOf(needle);
  return at < 0 ? unit.line : unit.line + unit.text.slice(0, at).split("\n").length - 1;
}

/** The hosts of `--hosts`, as the docs name them. */
export const HOSTS = ["netlify", "vercel", "cloudflare", "apache", "nginx", "netlify-static", "vercel-static"] as const;
export const DEFAULT_HOSTS = ["netlify", "apache", "nginx", "vercel", "cloudflare"];

/**
 * The hosts a unit's text builds with: the list of a `--hosts <list>` it gives, else the default hosts and any other
 * host it names (the fallbacks `netlify-static` and `vercel-static` are built only when named).
 */
export function hostsOf(text: string): string[] {
  const flag = /--hosts[ =]([a-z-]+(?:,[a-z-]+)*)/.exec(text);
  if (flag !== null && flag[1] !== "all" && flag[1] !== "default")
    return flag[1]!.split(",").filter((h) => (HOSTS as readonly string[]).includes(h));
  if (flag?.[1] === "all") return [...HOSTS];
  const named = HOSTS.filter((h) => h.includes("-") && new RegExp(`(?<![\\w-])${h}(?![\\w-])`).test(text));
  return [...DEFAULT_HOSTS, ...named];
}

/** The roots of what a build writes, relative to the folder that holds --out (the default --out, dist). */
const ROOT = String.raw`(?:dist|\.build-index-site|\.netlify|\.vercel|\.wrangler)(?:/|\.\w)`;
const WRITTEN = new RegExp(String.raw`^${ROOT}[^\s\`]*$`);

/** A path the text says a build writes: as written, and the line it stands on. */
export interface Mention {
  unit: Unit;
  line: number;
  path: string;
  /** The text that says which hosts build it: its sentence when that names a host, else its whole unit. */
  context: string;
}

/** Whether a text names a host (or gives `--hosts`). */
const namesHost = (text: string): boolean =>
  /--hosts/.test(text) || HOSTS.some((h) => new RegExp(`\\b${h}\\b`, "i").test(text));

/** Sentences that speak of a path as gone or as a moment's state: not a claim that a build has it. */
const NOT_A_CLAIM =
  /\bno longer\b|\bnot emitted\b|\bpresent only while\b|\bNo `|\b(?:deletes|removes) (?:it|the \w+)\b/;

/** The sentence of `text` around offset `at`. */
function sentenceAt(text: string, at: number): string {
  const before = text.slice(0, at).search(/[.!?:]\s+[A-Z(`][^.!?]*$/);
  const after = text.slice(at).search(/[.!?]\s/);
  return text.slice(before < 0 ? 0 : before + 1, after < 0 ? text.length : at + after + 1);
}

/**
 * Each path a prose unit says a build writes: a code span that is one path under one of the build's roots, and
 * the bare names of a list that follows "`<folder>/` holds" in the same sentence (`dist/` holds `a.json`, `b/`).
 */
export function proseMentions(unit: Unit): Mention[] {
  const found: Mention[] = [];
  for (const m of unit.text.matchAll(/`([^`\n]+)`/g)) {
    const span = m[1]!.trim();
    const sentence = sentenceAt(unit.text, m.index);
    if (!WRITTEN.test(span) || NOT_A_CLAIM.test(sentence)) continue;
    found.push({ unit, line: lineOf(unit, m[0]), path: span, context: namesHost(sentence) ? sentence : unit.text });
  }
  for (const m of unit.text.matchAll(
    /`((?:dist|\.build-index-site|\.netlify|\.vercel)[^`\s]*\/)` (?:holds|contains)\b/g,
  )) {
    const sentence = sentenceAt(unit.text, m.index);
    const rest = sentence.slice(sentence.indexOf(m[0]) + m[0].length);
    if (/^\s*(?:no|nothing|never|only)\b/.test(rest) || NOT_A_CLAIM.test(sentence)) continue;
    for (const name of rest.matchAll(/`([\w.-]+\/?)`/g))
      if (/[./]/.test(name[1]!))
        found.push({ unit, line: lineOf(unit, name[0]), path: `${m[1]}${name[1]}`, context: unit.text });
  }
  return found;
}

/**
 * The paths of a tree drawn in a code block (`├── name   what it is`), each joined to its parents; the tree's root
 * line (`<base>/`) is the folder that holds --out. Several names before the description are several paths.
 */
export function treeMentions(unit: Unit): Mention[] {
  if (unit.kind !== "code" || !unit.text.includes("├── ")) return [];
  const found: Mention[] = [];
  const parents: string[] = [];
  unit.text.split("\n").forEach((line, i) => {
    const m = /^((?:[│ ] {3})*)[├└]── (.*)$/.exec(line);
    if (m === null) return;
    const depth = m[1]!.length / 4;
    const [names = "", what = ""] = m[2]!.split(/ {2,}/, 2);
    if (NOT_A_CLAIM.test(what)) return;
    parents.length = depth;
    // Names run until the description; one space may part them (`.wrangler/deploy/config.json Wrangler's …`).
    const tokens = names.split(" ").filter((t) => t !== "" && t !== "…");
    const end = tokens.findIndex((t) => !/^[\w.<>*-]+(?:\/[\w.<>*-]*)*$/.test(t));
    for (const name of end < 0 ? tokens : tokens.slice(0, Math.max(end, 1)))
      found.push({ unit, line: unit.line + i, path: `${parents.join("")}${name}`, context: unit.text });
    const first = tokens[0] ?? "";
    parents[depth] = first.endsWith("/") ? first : `${first}/`;
  });
  return found;
}

/** A mention as a pattern over the build's paths: `<out>` is dist, other `<…>` one name, `-N.` a number. */
export function mentionPattern(mention: string): RegExp {
  const escaped = mention
    .replace(/<out>/g, "dist")
    .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
    .replace(/<[^>]+>/g, "[^/]+")
    .replace(/-N\\\./g, "-\\d+\\.")
    .replace(/\*/g, "[^/]*");
  return new RegExp(`^${escaped}${mention.endsWith("/") ? "" : "/?"}$`);
}
