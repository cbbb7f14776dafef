// src/output/plan/records.ts
// Every file of the build's records (src/layout/paths.ts), as the plan lists them.

import type { RawFile } from "../../content/read-content.js";
import type { HostFolder } from "../../hosts/index.js";
import type { LinkTree } from "../../layout/link-trees.js";
import { treeHolds } from "./tree-links.js";
import {
  ANSWER_INPUTS_FILE,
  BESIDE_DIR,
  BESIDE_MANIFEST_SUFFIX,
  CATALOGUE_PRINTS_FILE,
  HANDLER_FILE,
  HOSTS_DIR,
  HOSTS_RECORD_FILE,
  ROUTES_FILE,
  SERVE_FILE,
  SITE_ID_FILE,
  SITE_MANIFEST_FILE,
  STAMP_FILE,
} from "../../layout/paths.js";
import { serveConfig } from "../../layout/serve-config.js";
import { stringifyChunks } from "../../model/json-chunks.js";
import { stringify, type Body } from "../../model/json.js";
import { AnswerOutput } from "../../routes/answer-files.js";
import type { BuiltRoutes } from "../../routes/build-routes.js";
import type { ManifestEntries, ManifestText } from "../manifests/entries.js";
import { folderOf, linkGroup, SiteLink, type OutputFile } from "./files.js";

export interface RecordsInput {
  routes: BuiltRoutes;
  published: readonly RawFile[];
  hosts: readonly HostFolder[];
  /** --out's files as written, their manifest entries, and where --out now is (the host folders link its files). */
  site: { files: readonly OutputFile[]; entries: ManifestEntries; dir: string; manifest: ManifestText };
  stamp: string;
  /** The identities of --out and of the folders beside it, printed (`site.id`). */
  siteId: string;
  /** The folders beside --out as written: the records keep each one's manifest. */
  beside: ReadonlyArray<{ dir: string; manifest: ManifestText }>;
  /** The request-time handler as a Cloudflare-shaped module (`fetch(request, env)`), when an edge host is built: what
   * `preview`, `dev` and `verify` run (src/layout/read-build.ts). */
  handler?: string;
  /** What the answer files were computed from (src/routes/answer-inputs.ts), printed: when a static host is built. */
  answerInputs?: string;
  /** The prints of the catalogue's pages (src/catalogue/index.ts), printed: when the catalogue is built. */
  cataloguePrints?: string;
  /** Which host wrote which file, and what they were made from (src/hosts/record.ts), printed. */
  hostsRecord: string;
  /** The hosts' copies of the site (src/layout/link-trees.ts): `linkTrees(hosts)`. */
  trees: readonly LinkTree[];
  /** Whether the route table is the last build's (the same hosts key): routes.json then keeps its bytes. */
  tableUnchanged: boolean;
  /** Whether the trees' links are among the files (default): an update in place looks only at those it must
   * (src/output/plan/tree-links.ts). */
  links?: boolean;
}

/**
 * Every file of the build's records (src/layout/paths.ts): the stamp, the folders' identities, --out's manifest, the
 * route table, the preview's static rules, the manifest of each folder beside --out, and each host's own folder (its
 * configs, and for a host that uploads its own folder, the site's files hard-linked into it).
 */
export function planRecords(input: RecordsInput): OutputFile[] {
  const files: OutputFile[] = [];
  for (const f of recordFiles(input)) files.push(f); // one by one: a large site's trees hold many links
  return files;
}

/** The records' files as planRecords lists them, apart from the trees' links. */
export interface RecordsApart {
  /** Every file but the trees' links, in planRecords' order. */
  files: OutputFile[];
  /** The folder of each run of files in planRecords' list, the links' too (foldersIn of that list). */
  folders: string[];
  /** The trees' links, made one by one as they are asked for and dropped once written: a large site's trees hold
   * over a million, which the full writer never holds at once. */
  links(): Iterable<SiteLink>;
}

/** The records' files with the trees' links apart (the full writer writes them last, made as it goes). */
export function recordsApart(input: RecordsInput): RecordsApart {
  const files: OutputFile[] = [];
  const folders: string[] = [];
  let last: string | undefined;
  for (const f of recordFiles(input)) {
    const folder = folderOf(f);
    if (folder !== last) folders.push((last = folder));
    if (!(f instanceof SiteLink)) files.push(f);
  }
  return { files, folders, links: () => treeLinksOf(input) };
}

/** The records' files, one by one, in planRecords' order. */
function* recordFiles(input: RecordsInput): Generator<OutputFile> {
  const { site } = input;
  const manifest = site.manifest;
  const files: OutputFile[] = [
    { path: STAMP_FILE, data: input.stamp },
    { path: SITE_ID_FILE, data: input.siteId },
    // Both printed when they are written, and dropped then: a large site's are large.
    { path: SITE_MANIFEST_FILE, produce: () => manifest.bytes(), chunks: () => manifest.chunks() },
    {
      path: ROUTES_FILE,
      produce: () => stringify(input.routes.table as unknown as Body),
      chunks: () => stringifyChunks(input.routes.table as unknown as Body),
      unchanged: input.tableUnchanged,
    },
    { path: SERVE_FILE, data: stringify(serveConfig(input.published.map((f) => f.path)) as unknown as Body) },
  ];
  if (input.handler !== undefined) files.push({ path: HANDLER_FILE, data: input.handler });
  if (input.answerInputs !== undefined) files.push({ path: ANSWER_INPUTS_FILE, data: input.answerInputs });
  if (input.cataloguePrints !== undefined) files.push({ path: CATALOGUE_PRINTS_FILE, data: input.cataloguePrints });
  files.push({ path: HOSTS_RECORD_FILE, data: input.hostsRecord });
  for (const b of input.beside) {
    const text = b.manifest;
    files.push({
      path: `${BESIDE_DIR}/${b.dir}${BESIDE_MANIFEST_SUFFIX}`,
      produce: () => text.bytes(),
      chunks: () => text.chunks(),
    });
  }
  yield* files;
  for (const host of input.hosts) {
    const dir = `${HOSTS_DIR}/${host.name}`;
    for (const f of host.files) {
      // A config held in pieces is written piece by piece (joined only where a writer asks for its whole text).
      const chunks = f.chunks;
      yield chunks !== undefined
        ? { path: `${dir}/${f.path}`, produce: () => f.data, chunks: () => chunks.call(f) }
        : {
            path: `${dir}/${f.path}`,
            data: f.data,
            ...(f.sha1 === undefined ? {} : { hash: Buffer.from(f.sha1, "base64url") }),
            ...(f.bytes === undefined ? {} : { size: f.bytes }),
          };
    }
    if (input.links !== false) yield* hostLinks(input, host);
  }
}

/** Every tree's links, host by host. */
function* treeLinksOf(input: RecordsInput): Generator<SiteLink> {
  for (const host of input.hosts) yield* hostLinks(input, host);
}

/** The links of a host's tree, when it has one: each file of --out written that the tree holds. */
function* hostLinks(input: RecordsInput, host: HostFolder): Generator<SiteLink> {
  const { site } = input;
  const tree = input.trees.find((t) => t.host === host.name);
  if (tree === undefined) return;
  const group = linkGroup(tree.prefix, site, true);
  for (let i = 0; i < site.files.length; i++) {
    const f = site.files[i]!;
    if (site.entries.size(i) >= 0 && treeHolds(tree, f instanceof AnswerOutput, f)) yield new SiteLink(group, i);
  }
}
