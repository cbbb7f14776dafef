// src/layout/serve-config.ts
// dist/serve.json: the config `npx serve dist` (and our preview) hands to serve-handler. It sets the API's
// headers on the static /api/ paths, and the mime-types Content-Type of every published file type (serve-handler
// bundles an older mime-types that differs for some, e.g. .ico and .woff).

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { HEADER_GROUPS } from "../php/header-groups.js";

/** Extension (lower case) → the Content-Type mime-types gives it (charset included), as mime.contentType(ext) says. */
export type ContentTypes = Readonly<Record<string, string>>;

/** The table from mime-types itself (what the package build writes down; the sources, in tests, use it directly). */
export function mimeTypesTable(): ContentTypes {
  const mime = createRequire(import.meta.url)("mime-types") as typeof import("mime-types");
  const table: Record<string, string> = {};
  for (const ext of Object.keys(mime.types)) {
    const type = mime.contentType(ext);
    if (type !== false) table[ext] = type;
  }
  return table;
}

let contentTypes: ContentTypes | undefined;

/** The table the package build made (lib/output/), else mime-types' own: loaded once (read: cheaper than required). */
function contentTypeTable(): ContentTypes {
  if (contentTypes !== undefined) return contentTypes;
  try {
    // From lib/layout/serve-config.js and from the command's bundle in lib/cli-bundle/ alike.
    contentTypes = JSON.parse(
      readFileSync(new URL("../output/content-types.generated.json", import.meta.url), "utf8"),
    ) as ContentTypes;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    contentTypes = mimeTypesTable();
  }
  return contentTypes;
}

interface HeaderRule {
  source: string;
  headers: Array<{ key: string; value: string }>;
}

export interface ServeConfig {
  cleanUrls: false;
  directoryListing: false;
  headers: HeaderRule[];
}

/** `published`: site paths of the files copied from the content. */
export function serveConfig(published: readonly string[]): ServeConfig {
  // Content-Type by type, each with the extensions (as spelled) that have it; serve's schema allows 50 rules.
  const byType = new Map<string, Set<string>>();
  // Each extension (as spelled) looked at once: a large site publishes many files, nearly all .png.
  const seen = new Set<string>();
  for (const p of published) {
    const dot = p.lastIndexOf(".");
    if (dot <= p.lastIndexOf("/") + 1) continue;
    const ext = p.slice(dot + 1);
    if (seen.has(ext)) continue;
    seen.add(ext);
    if (!/^[A-Za-z0-9_-]+$/.test(ext)) continue;
    const table = contentTypeTable();
    const key = ext.toLowerCase();
    if (!Object.hasOwn(table, key)) continue; // "constructor" is no extension
    const type = table[key]!;
    byType.set(type, (byType.get(type) ?? new Set()).add(ext));
  }
  const typeRules: HeaderRule[] = [...byType]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([type, exts]) => {
      const list = [...exts].sort();
      return {
        source: list.length === 1 ? `**/*.${list[0]}` : `**/*.{${list.join(",")}}`,
        headers: [{ key: "Content-Type", value: type }],
      };
    });
  // The API groups come last: serve-handler applies every matching rule in order, later ones win.
  const apiRules: HeaderRule[] = HEADER_GROUPS.flatMap((g) =>
    g.paths.map((p) => ({
      source: p.endsWith("/") ? `${p}**` : p,
      headers: Object.entries(g.headers).map(([key, value]) => ({ key, value })),
    })),
  );
  return { cleanUrls: false, directoryListing: false, headers: [...typeRules, ...apiRules] };
}
