// src/output/plan.ts
// Everything the build writes, as a sorted list of files: answers, route table, host configs, copied content.

import { answerText } from "../api/answers.js";
import type { RawFile } from "../content/read-content.js";
import { stringify, type Body } from "../model/json.js";
import type { BuiltRoutes } from "../routes/build-routes.js";
import { serveConfig } from "./serve-config.js";

export type OutputFile =
  | { path: string; data: string | Uint8Array }
  /** A content file copied byte for byte (the copy gets the source's modification time, which lets rebuilds reuse it). */
  | { path: string; source: string; size: number; mtimeMs?: number };

export function planOutput(routes: BuiltRoutes, published: readonly RawFile[], hostFiles: readonly OutputFile[] = []): OutputFile[] {
  const files: OutputFile[] = [];
  for (const [path, answer] of routes.files) files.push({ path: path.slice(1), data: answerText(answer) });
  files.push({ path: "routes.json", data: stringify(routes.table as unknown as Body) });
  files.push({ path: "serve.json", data: stringify(serveConfig(published.map((f) => f.path)) as unknown as Body) });
  for (const f of published) files.push({ path: f.path, source: f.absPath, size: f.size, mtimeMs: f.mtimeMs });
  files.push(...hostFiles);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (let i = 1; i < files.length; i++) {
    if (files[i]!.path === files[i - 1]!.path) throw new Error(`Internal: ${files[i]!.path} is written twice.`);
  }
  return files;
}

/** Paths that would land on the same file on a case-insensitive file system (macOS, Windows). */
export function caseCollisions(files: readonly OutputFile[]): string[][] {
  const seen = new Map<string, string[]>();
  for (const f of files) {
    const key = f.path.toLowerCase();
    seen.set(key, [...(seen.get(key) ?? []), f.path]);
  }
  return [...seen.values()].filter((paths) => paths.length > 1);
}
