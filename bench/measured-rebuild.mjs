// bench/measured-rebuild.mjs
// Snapshots of a built root (every file's inode and size; the manifests' entries) and a rebuild measured with them:
// how many files it rewrote and how many changed bytes, counted from the disk, not from the tool's log.
// I/O: lists and reads built sites.

import { lstat, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { buildCmd } from "./timed-run.mjs";

/** Every regular file under dir: path → { ino, size }. */
export async function listFiles(dir) {
  const out = new Map();
  const walk = async (rel) => {
    const entries = await readdir(path.join(dir, rel), { withFileTypes: true });
    await Promise.all(
      entries.map(async (e) => {
        const child = rel === "" ? e.name : `${rel}/${e.name}`;
        if (e.isDirectory()) return walk(child);
        const s = await lstat(path.join(dir, child));
        out.set(child, { ino: s.ino, size: s.size });
      }),
    );
  };
  await walk("");
  return out;
}

/** Manifest lines of a built folder (`folder` relative to `root`; generated files): path → "<hash> <size>". */
async function manifest(root, folder) {
  const map = new Map();
  // The manifests of --out and of the folders beside it are in its records (docs/layout.md); the records have their
  // own inside.
  const records = path.join(root, ".build-index-site", "dist");
  const file =
    folder === "dist"
      ? path.join(records, "site.manifest")
      : folder.startsWith(".build-index-site/")
        ? path.join(root, folder, ".build-manifest")
        : path.join(records, "beside", `${folder}.manifest`);
  const text = await readFile(file, "utf8").catch(() => "");
  for (const line of text.split("\n").slice(1)) {
    const second = line.indexOf(" ", line.indexOf(" ") + 1);
    if (second > 0) map.set(line.slice(second + 1), line.slice(0, second));
  }
  return map;
}

/** The manifests of a build root's folders (dist/, the host folders beside it and the records): root-relative path → entry. */
async function manifests(root) {
  const all = new Map();
  for (const folder of ["dist", ".netlify/v1", ".vercel/output", ".build-index-site/dist"]) {
    for (const [p, entry] of await manifest(root, folder)) all.set(`${folder}/${p}`, entry);
  }
  return all;
}

/**
 * Each file's manifest entry: its own, or for a file no manifest lists (a host's hard link into dist/, docs/layout.md)
 * the entry of a listed file with the same inode, which holds the same bytes. `files` is a snapshot (listFiles).
 */
function entriesOf(files, hashes) {
  const byInode = new Map();
  for (const [p, f] of files) if (hashes.has(p)) byInode.set(f.ino, hashes.get(p));
  const all = new Map(hashes);
  for (const [p, f] of files) if (!all.has(p) && byInode.has(f.ino)) all.set(p, byInode.get(f.ino));
  return all;
}

/**
 * One edit of the content, then a rebuild from the command: its time, and how many files it rewrote (counted from the
 * inodes before and after, not from the tool's log) and how many changed bytes (from the manifests). Neither counts
 * the bookkeeping every build changes: each folder's manifest (any input), the record of the
 * folders (.build-index-site/<out>.dirs, any build), the content cache (<out>.content, any content file read) and the
 * parses' record (<out>.parsed, any JSON file changed).
 */
export async function measuredRebuild(content, out, root, edit) {
  const before = await listFiles(root);
  const hashesBefore = entriesOf(before, await manifests(root));
  await edit();
  const r = await buildCmd(content, out);
  const after = await listFiles(root);
  const hashesAfter = entriesOf(after, await manifests(root));
  const rewritten = [...after]
    .filter(([p, f]) => before.get(p)?.ino !== f.ino)
    .map(([p]) => p)
    .filter((p) => !/(^|\/)\.build-(manifest|inputs)$|\/beside\/.*\.manifest$|\.(dirs|content|parsed)$/.test(p));
  const changed = new Set(
    [...hashesAfter]
      .filter(([p, h]) => hashesBefore.get(p) !== h)
      .map(([p]) => p)
      .filter((p) => !/\.build-inputs$|\/beside\/.*\.manifest$/.test(p)),
  );
  const extra = rewritten.filter((p) => !changed.has(p));
  const extraLine =
    extra.length > 0
      ? `; rewritten with the same bytes: ${extra.slice(0, 5).join(", ")}${extra.length > 5 ? ", …" : ""}`
      : "";
  return { ms: r.ms, rewritten: rewritten.length, changed: changed.size, extra: extra.length, extraLine };
}
