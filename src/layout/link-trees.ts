// src/layout/link-trees.ts
// A host's copy of the site in the build's records (its document root, `hosts/<host>/[<dir>/]`): hard links to the
// files of --out, chosen by their paths alone. The records' manifest does not list these links (a large site has
// hundreds of thousands): they are implied by --out's manifest (site.manifest) and the hosts' record (hosts.json), which says each
// host's document root and own files. docs/layout.md describes them.

import { HOSTS_DIR } from "./paths.js";

export interface LinkTree {
  /** The host whose document root it is. */
  readonly host: string;
  /** The links' paths in the records: this + the site path ("hosts/apache/", "hosts/cloudflare/public/"). */
  readonly prefix: string;
  /** "site": every file of --out but the handler's data files; "plain": no answer file (an edge host's handler
   * answers /api.php). */
  readonly docroot: "site" | "plain";
  /** The site paths the host's own files take (its `.htaccess`, `_headers`): not linked. */
  readonly own: ReadonlySet<string>;
  /** Whether one of them lies where answers do (else no answer's path needs making to look). */
  readonly ownAmongAnswers: boolean;
}

/** What a tree is made from: a host's name, document root and own files (a rendered host, or hosts.json's). */
export interface TreeHost {
  name: string;
  files: ReadonlyArray<{ path: string }>;
  docroot?: "site" | "plain";
  docrootDir?: string;
}

/** The trees of the hosts that have a document root, in the hosts' order. */
export function linkTrees(hosts: readonly TreeHost[]): LinkTree[] {
  const trees: LinkTree[] = [];
  for (const host of hosts) {
    if (host.docroot === undefined) continue;
    const docroot = host.docrootDir === undefined ? "" : `${host.docrootDir}/`;
    const own = new Set<string>();
    for (const f of host.files) if (f.path.startsWith(docroot)) own.add(f.path.slice(docroot.length));
    trees.push({
      host: host.name,
      prefix: `${HOSTS_DIR}/${host.name}/${docroot}`,
      docroot: host.docroot,
      own,
      ownAmongAnswers: [...own].some(isAnswerPath),
    });
  }
  return trees;
}

/** The trees as one string: two builds whose trees print the same link the same files of the same --out. */
export function printTrees(trees: readonly LinkTree[]): string {
  return JSON.stringify(trees.map((t) => [t.prefix, t.docroot, [...t.own].sort()]));
}

/** Whether a path of --out is an answer's (answers all lie in api/, and nothing else does: src/output/plan/site.ts). */
export const isAnswerPath = (sitePath: string): boolean =>
  sitePath.length > 4 && sitePath[3] === "/" && sitePath.slice(0, 3).toLowerCase() === "api";
