// src/output/plan/publish-plan.ts
// What publishing writes, folder by folder: --out's files, then those of the folders beside it and of the records,
// made once --out is written (they link to its files, and record its manifest and identity).

import type { RawFile } from "../../content/read-content.js";
import type { BesideFolder, HostFolder } from "../../hosts/index.js";
import type { LastBuild } from "../../layout/last-build.js";
import { linkTrees, type LinkTree } from "../../layout/link-trees.js";
import { printSiteId, type FolderId } from "../../layout/stamp.js";
import type { AnswerInputs } from "../../routes/answer-inputs.js";
import type { BuiltRoutes } from "../../routes/build-routes.js";
import type { ManifestEntries, ManifestText } from "../manifests/entries.js";
import { planBeside } from "./beside.js";
import type { OutputFile } from "./files.js";
import { planRecords, recordsApart, type RecordsApart, type RecordsInput } from "./records.js";

/** --out as written: what the folders beside it and the records link to and record. */
export interface SiteWritten {
  dir: string;
  id: FolderId;
  entries: ManifestEntries;
  /** --out's manifest, printed when the records write it (a large site's is not held meanwhile). */
  manifest: ManifestText;
}

/** A folder beside --out as written: its place relative to the folder that holds --out (".vercel/output"), its
 * identity and its manifest, which the records keep. */
export interface BesideWritten {
  dir: string;
  id: FolderId;
  manifest: ManifestText;
}

/** A computed build, as publishing takes it (src/pipeline/compile-site.ts computes it). */
export interface PublishInput {
  /** The files of --out. */
  site: OutputFile[];
  routes: BuiltRoutes;
  /** The content files copied into the site. */
  published: readonly RawFile[];
  /** Each host's own folder in the records, and the folders the hosts write beside --out. */
  hosts: readonly HostFolder[];
  beside: readonly BesideFolder[];
  /** Where each folder beside --out goes (absolute, checked: src/output/claim/folder-checks.ts), in `beside`'s order. */
  besidePaths: readonly string[];
  /** The request-time handler the records keep, when an edge host is built. */
  handler?: string;
  /** The records' hosts.json, printed when asked for, and the key in it (src/hosts/record.ts). */
  hostsRecord(): string;
  hostsKey(): string;
  /** The records' prints of the catalogue's pages, when it is built. */
  cataloguePrints?: string;
  /** The build's stamp, printed (src/layout/stamp.ts): in the records. */
  stamp: string;
  /** What the answer files of --out are computed from, when it holds answers, and its text in the records: an update
   * in place keeps those whose inputs the last build's records show unchanged, without producing them. */
  answerInputs?: { inputs: AnswerInputs; text: string };
}

export interface PublishPlan {
  /** The files of --out. */
  site: readonly OutputFile[];
  /** Each folder beside --out (`dir` absolute, `name` relative to the folder that holds --out), its files made once
   * --out is written (they link to its files). */
  beside: ReadonlyArray<{ dir: string; name: string; files(site: SiteWritten): OutputFile[] }>;
  /** The records' files, made once --out and the folders beside it are written (they record their manifests and
   * identities); without the trees' links when `links` is false. */
  records(site: SiteWritten, beside: readonly BesideWritten[], links?: boolean): OutputFile[];
  /** The same files with the trees' links apart, made as the full writer writes them (src/output/plan/records.ts). */
  recordsApart(site: SiteWritten, beside: readonly BesideWritten[]): RecordsApart;
  /** The hosts' copies of the site among the records' files (src/layout/link-trees.ts): their manifest omits them. */
  trees: readonly LinkTree[];
  answerInputs?: { inputs: AnswerInputs; text: string };
}

/** The plan of every folder `input` writes into `layout`'s places, over `last`, the build the records describe now. */
export function planPublish(input: PublishInput, last: Pick<LastBuild, "hostsKey" | "keptBeside">): PublishPlan {
  const { site, routes, published, hosts, handler, cataloguePrints, stamp, answerInputs } = input;
  const trees = linkTrees(hosts);
  return {
    site,
    trees,
    beside: input.beside.map((folder, i) => ({
      dir: input.besidePaths[i]!,
      name: folder.dir,
      files: (written) => planBeside(folder, { files: site, dir: written.dir, entries: written.entries }),
    })),
    records: (written, beside, links) => planRecords(recordsInput(written, beside, links)),
    recordsApart: (written, beside) => recordsApart(recordsInput(written, beside)),
    ...(answerInputs === undefined ? {} : { answerInputs }),
  };

  function recordsInput(written: SiteWritten, beside: readonly BesideWritten[], links?: boolean): RecordsInput {
    return {
      routes,
      published,
      hosts,
      trees,
      hostsRecord: input.hostsRecord(),
      stamp,
      // The same key, the same route table: routes.json is neither printed nor hashed.
      tableUnchanged: last.hostsKey() === input.hostsKey(),
      siteId: printSiteId(written.id, [
        ...beside,
        // A folder an earlier build wrote for a host this one leaves out: still named (it stays there).
        ...last.keptBeside().filter((k) => !input.beside.some((b) => b.dir === k.dir)),
      ]),
      beside,
      ...(handler === undefined ? {} : { handler }),
      ...(answerInputs === undefined ? {} : { answerInputs: answerInputs.text }),
      ...(cataloguePrints === undefined ? {} : { cataloguePrints }),
      site: { files: site, entries: written.entries, dir: written.dir, manifest: written.manifest },
      ...(links === false ? { links } : {}),
    };
  }
}
