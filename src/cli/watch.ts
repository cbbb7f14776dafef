// src/cli/watch.ts
// What `dev` needs besides a build and a preview: a watcher of the content folder (chokidar, or polling), a debounce
// that never runs two builds at once, and one log line per request.

import { watch } from "chokidar";
import { existsSync, readdirSync, statSync } from "node:fs";
import type http from "node:http";
import path from "node:path";
import { isOwnFetch } from "../preview/own-fetch.js";

/**
 * Calls `onChange` when anything under `dir` changes, with the file's path relative to `dir` (nothing when polling).
 * chokidar, not Node's recursive fs.watch: on Linux, Node 20's follows files by inode, and so reports a file saved by
 * writing a new one and renaming it over (what many editors do) once, and never again.
 */
export function watchTree(
  dir: string,
  onChange: (file?: string) => void,
  options: { poll?: boolean; intervalMs?: number; onError?: (error: Error) => void } = {},
): { ready: Promise<void>; close(): void } {
  if (options.poll !== true) {
    const watcher = watch(dir, { ignoreInitial: true });
    watcher.on("all", (_event, file) => onChange(path.relative(dir, file)));
    // Too many files for the system's watches (ENOSPC on Linux), or the folder removed (the next build reports that).
    watcher.on("error", (error) => options.onError?.(error instanceof Error ? error : new Error(String(error))));
    // Ready once every folder is watched: a change after that is reported.
    const ready = new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
    return { ready, close: () => void watcher.close() };
  }
  let last = treeSignature(dir);
  const timer = setInterval(() => {
    const now = treeSignature(dir);
    if (now !== last) {
      last = now;
      onChange();
    }
  }, options.intervalMs ?? 500);
  return { ready: Promise.resolve(), close: () => clearInterval(timer) };
}

/** Every path with its size and modification time: changes when any file is added, removed or written. */
export function treeSignature(dir: string): string {
  const parts: string[] = [];
  const walk = (rel: string): void => {
    let names: string[];
    try {
      names = readdirSync(path.join(dir, rel)).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const relPath = rel === "" ? name : `${rel}/${name}`;
      try {
        const s = statSync(path.join(dir, relPath));
        parts.push(`${relPath}:${s.size}:${s.mtimeMs}`);
        if (s.isDirectory()) walk(relPath);
      } catch {
        parts.push(`${relPath}:gone`);
      }
    }
  };
  if (existsSync(dir)) walk("");
  return parts.join("\n");
}

/** Runs `task` after `ms` of quiet; never two at once (a change during a run schedules one more run). */
export function debounced(task: () => Promise<void>, ms: number): { trigger: () => void; idle: () => Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let again = false;
  const run = (): void => {
    if (running !== null) {
      again = true;
      return;
    }
    running = task().finally(() => {
      running = null;
      if (again) {
        again = false;
        run();
      }
    });
  };
  return {
    trigger: () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(run, ms);
    },
    idle: async () => {
      while (running !== null) await running;
    },
  };
}

/**
 * One line per request (method, URL as the client sent it, status, milliseconds), written when the answer ends. The
 * edge handler's own reads of its data (/_edge-data/…, fetched from the preview itself) are not requests of a client.
 */
export function logRequests(server: http.Server, log: (line: string) => void): void {
  server.prependListener("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (isOwnFetch(req)) return;
    const started = performance.now();
    const method = req.method ?? "?";
    const url = req.url ?? "/";
    let done = false;
    const end = (): void => {
      if (done) return;
      done = true;
      log(`${method} ${url} ${res.statusCode} ${(performance.now() - started).toFixed(1)} ms`);
    };
    res.once("finish", end);
    res.once("close", end);
  });
}
