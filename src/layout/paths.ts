// src/layout/paths.ts
// Where everything a build writes lives, computed from --out alone (pure: no file is read). docs/layout.md draws it.
//
//   <base>/                      the folder that holds --out (Netlify's base directory when --out is dist)
//   ├── dist/                    --out: the public site only (what `serve dist`, the preview and verify read)
//   ├── .build-index-site/dist/  the build's own records, one folder per --out, never published or served as such
//   │   ├── build.json           the stamp: format, inputs key, hosts, counts, the folders written
//   │   ├── site.manifest        a hash and size per file of dist/;  site.id: which dist/ and folders beside it
//   │   ├── beside/<dir>.manifest  a hash and size per file of each folder beside dist/ (".vercel/output")
//   │   ├── routes.json          the route table;  serve.json: the static rules the preview hands serve-handler
//   │   ├── handler.js           the request-time handler (Cloudflare-shaped), when an edge host is built
//   │   └── hosts/<host>/        a host's upload (links to dist/'s files it serves, and its configs: netlify,
//   │                            apache, cloudflare, nginx's root/, …)
//   └── .netlify/v1/, .vercel/output/   the folders a platform reads from its fixed place (no file of ours inside)

import path from "node:path";

/** The folder beside --out that holds the records of every --out built there. */
export const RECORDS_ROOT = ".build-index-site";

/** The records' own file names. */
export const STAMP_FILE = "build.json";
export const SITE_MANIFEST_FILE = "site.manifest";
export const SITE_ID_FILE = "site.id";
export const ROUTES_FILE = "routes.json";
export const SERVE_FILE = "serve.json";
export const HOSTS_DIR = "hosts";
/** The records' folder of the manifests of the folders beside --out: `beside/<dir>.manifest` (".vercel/output"). */
export const BESIDE_DIR = "beside";
export const BESIDE_MANIFEST_SUFFIX = ".manifest";
/** The request-time handler as a Cloudflare-shaped module, kept when an edge host is built (what the preview runs). */
export const HANDLER_FILE = "handler.js";
/** What each answer file was computed from (src/routes/answer-inputs.ts), when a static host is built: an in-place
 * update keeps the answer files whose inputs are unchanged without producing them. */
export const ANSWER_INPUTS_FILE = "answer-inputs.json";
/** Which host wrote which file, and what they were made from (src/hosts/record.ts): the next build reads them back
 * instead of making them again when that is unchanged. */
export const HOSTS_RECORD_FILE = "hosts.json";
/** A print of what each page of the catalogue shows (src/catalogue/index.ts), when the catalogue is built: an
 * in-place update makes again only the pages whose print changed. */
export const CATALOGUE_PRINTS_FILE = "catalogue-inputs.json";
/** The manifest the records keep inside: a hash and size per file; its first line also marks the folder as this
 * tool's. --out's is the records' site.manifest, each folder beside --out's `beside/<dir>.manifest`. */
export const MANIFEST_FILE = ".build-manifest";
export const MANIFEST_HEADER = "build-index-site manifest 1";
/** The stamp that builds of layout format 3 and before left in each folder beside --out, naming its --out (with their
 * manifest, MANIFEST_FILE): read only to name the owner of such a folder. */
export const OLD_BESIDE_STAMP_FILE = ".build-inputs";
/** Beside the records folder (`.build-index-site/<name>.pending`): the folders a full build under way swapped in
 * before its records name them. */
export const PENDING_SUFFIX = ".pending";
/** The pending record of the records folder `records` (Layout.pending). */
export const pendingOf = (records: string): string => `${records}${PENDING_SUFFIX}`;

export interface Layout {
  /** --out, absolute: the public site. */
  out: string;
  /** The folder that holds --out: folders that platforms read from a fixed place (`.netlify/v1`) go here. */
  base: string;
  /** `.build-index-site/<name of --out>`: the build's records. */
  records: string;
  stamp: string;
  siteManifest: string;
  siteId: string;
  routes: string;
  serve: string;
  /** The request-time handler the preview, dev and verify run (HANDLER_FILE). */
  handler: string;
  /** The journal of an in-place update under way (`.build-index-site/<name>.update`): while it exists, the output is
   * incomplete (src/output/write/in-place.ts). */
  journal: string;
  /** The inode and change time of every folder the last build wrote (`.build-index-site/<name>.dirs`): an in-place
   * update reads only the folders that changed since (src/output/manifests/dir-stamps.ts). */
  folders: string;
  /** The facts of the content's files the last build read (`.build-index-site/<name>.content`: sha1, image type and
   * size, by inode, size and times): the next build reads only the files that changed (src/content/content-cache.ts). */
  contentCache: string;
  /** The content's JSON files as parsed and checked (`.build-index-site/<name>.parsed`): the next build parses only
   * those whose bytes changed (src/content/parse-cache.ts). */
  parsedCache: string;
  /** The identities of the folders a full build under way swapped in, or is about to, until its records name them
   * (`.build-index-site/<name>.pending`, src/output/claim/pending.ts). */
  pending: string;
  /** The manifest the records keep of a folder beside --out (".netlify/v1"). */
  besideManifest(dir: string): string;
  /** A host's own folder in the records. */
  host(name: string): string;
  /** A platform's folder beside --out (".netlify/v1"). */
  beside(dir: string): string;
}

/**
 * The layout of the build whose --out is `outDir`. Pass the real path of --out (through symlinks) when the folders
 * must be found where the build wrote them.
 */
export function layoutOf(outDir: string): Layout {
  const out = path.resolve(outDir);
  const base = path.dirname(out);
  const records = path.join(base, RECORDS_ROOT, path.basename(out));
  return {
    out,
    base,
    records,
    stamp: path.join(records, STAMP_FILE),
    siteManifest: path.join(records, SITE_MANIFEST_FILE),
    siteId: path.join(records, SITE_ID_FILE),
    routes: path.join(records, ROUTES_FILE),
    serve: path.join(records, SERVE_FILE),
    handler: path.join(records, HANDLER_FILE),
    journal: `${records}.update`,
    folders: `${records}.dirs`,
    contentCache: `${records}.content`,
    parsedCache: `${records}.parsed`,
    pending: pendingOf(records),
    besideManifest: (dir) => path.join(records, BESIDE_DIR, ...`${dir}${BESIDE_MANIFEST_SUFFIX}`.split("/")),
    host: (name) => path.join(records, HOSTS_DIR, name),
    beside: (dir) => path.join(base, ...dir.split("/")),
  };
}
