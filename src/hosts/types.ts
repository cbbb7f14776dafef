// src/hosts/types.ts
// The contract every host adapter keeps: a pure function from the route table (static hosts) or the request-time
// handler and its data (edge hosts) to the text of that host's files.

import type { RouteTable } from "../routes/route-table.js";

/** One file of a host's configuration, relative to its folder (no leading "/"). */
export interface HostFile {
  path: string;
  data: string;
  /** Its sha1 as the hosts' record lists it (src/hosts/record.ts), when known: a file read back from the last build
   * and checked against its record is not hashed again to be recorded. */
  sha1?: string;
  /** Its size in UTF-8 bytes, when known with its sha1 (read back, or rendered and hashed): not measured again. */
  bytes?: number;
  /** The same text in pieces, when a large config keeps it so (src/hosts/shared/pieces.ts): written piece by piece. */
  chunks?(): Iterable<string>;
}

/**
 * A folder the build writes BESIDE the output folder (in the folder that holds --out: Netlify's base directory when
 * --out is dist), replaced atomically as the output folder is; it holds only the host's files (the records keep its
 * manifest and identity).
 */
export interface BesideFolder {
  /** "/"-separated, relative to the folder that holds --out: ".netlify/v1". */
  dir: string;
  files: HostFile[];
  /** Also link what an edge host serves as files into this sub-folder ("static"): the plain files and the handler's
   * data files, never the answer files (the host's function answers /api.php). */
  plainFiles?: string;
}

/** What an adapter renders from. Each field is computed only when an adapter asks for it. */
export interface HostInput {
  table: RouteTable;
  /** The service's name (manifest.json): Cloudflare's Worker is named after it. */
  service: string;
  /** The name of --out ("dist"): configs beside it that point into the records name it. */
  out: string;
  /**
   * A host's request-time handler: one self-contained ES module (src/hosts/<host>/entry.ts bundled with the
   * handler), the same for every site. It reads the site's data files (src/edge/data.ts), which the build writes into
   * the public site (`_edge-data/`) whenever an edge host is built.
   */
  entry: (host: string) => string;
}

export interface HostOutput {
  /**
   * The host's own folder, `.build-index-site/<out>/hosts/<name>/` (src/layout): its configs, never inside --out
   * (which every static server publishes as it is).
   */
  files: HostFile[];
  /**
   * When the host's folder is also what it uploads: "site" links every file of --out into it (answers too: a static
   * host serves them), "plain" only what an edge host serves as files: the plain files and the handler's data files
   * (its handler answers /api.php). Absent: configs only.
   */
  docroot?: "site" | "plain";
  /** The sub-folder of the host's folder that the docroot's links go to ("public"); the folder itself when absent. */
  docrootDir?: string;
  /** Folders beside the output folder, where a platform reads them. */
  beside?: BesideFolder[];
}

/** What a host's config holds where the host limits it (src/hosts/limits.ts compares). */
export interface ConfigMeasures {
  /** Rule lines of `_redirects`. */
  redirectLines?: number;
  /** Rewrites and header rules of `vercel.json`. */
  rewrites?: number;
  headerRules?: number;
}

export interface HostAdapter {
  /** Its preset's name (src/hosts/<name>/preset.ts). */
  name: string;
  /** The files that make this host answer `/api.php?…` as the reference does. Never touches the disk. */
  render(input: HostInput): HostOutput;
  /** Counts what its files (as rendered, or read back from the last build) hold, where its preset limits it. */
  measure?(files: readonly HostFile[]): ConfigMeasures;
}
