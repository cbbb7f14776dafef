// src/hosts/index.ts
// The hosts' face: the registry (src/hosts/registry.ts), the `--hosts` parser, and rendering the chosen hosts' files.

import { fileHash } from "./record.js";
import { HOSTS } from "./registry.js";
import { DEFAULT_HOSTS, HOST_NAMES, type HostName } from "./names.js";
import type { BesideFolder, ConfigMeasures, HostFile, HostInput, HostOutput } from "./types.js";

export type { BesideFolder, ConfigMeasures, HostAdapter, HostFile, HostInput, HostOutput } from "./types.js";
export { DEFAULT_HOSTS, HOST_NAMES, parseHosts, type HostName } from "./names.js";
export { HOSTS } from "./registry.js";

/** One host's own folder in the build's records (`hosts/<name>/`). */
export interface HostFolder {
  name: HostName;
  files: HostFile[];
  docroot?: "site" | "plain";
  docrootDir?: string;
}

/** What the chosen hosts write: their own folders in the records, and folders beside --out. */
export interface RenderedHosts {
  folders: HostFolder[];
  beside: BesideFolder[];
  /** Each chosen host's output as its adapter rendered it (what its deploy receives, for the plan limits). */
  outputs: Array<{ name: HostName; output: HostOutput }>;
}

/** Every chosen host's files, in registry order. Two hosts never write the same folder beside --out. */
export function renderHosts(input: HostInput, hosts: readonly HostName[] = DEFAULT_HOSTS): RenderedHosts {
  return assembleHosts(
    HOST_NAMES.filter((n) => hosts.includes(n)).map((name) => ({ name, output: HOSTS[name].render(input) })),
  );
}

/** What a host's own files hold where its preset limits it (rule counts), for the plan limits. */
export function configMeasures(name: HostName, output: HostOutput): ConfigMeasures {
  return HOSTS[name].measure?.(output.files) ?? {};
}

/** The same hosts, each file with its sha1 (the hosts' record lists it, and the writers use it): hashed once. */
export function withFileHashes(rendered: RenderedHosts): RenderedHosts {
  const hashed = (files: readonly HostFile[]): HostFile[] =>
    files.map((f) =>
      f.sha1 === undefined ? { ...f, sha1: fileHash(f.data), bytes: Buffer.byteLength(f.data, "utf8") } : f,
    );
  return assembleHosts(
    rendered.outputs.map(({ name, output }) => ({
      name,
      output: {
        ...output,
        files: hashed(output.files),
        ...(output.beside === undefined
          ? {}
          : { beside: output.beside.map((b) => ({ ...b, files: hashed(b.files) })) }),
      },
    })),
  );
}

/** The hosts' folders, from each host's output (rendered now, or as the last build wrote them: src/hosts/record.ts). */
export function assembleHosts(outputs: ReadonlyArray<{ name: HostName; output: HostOutput }>): RenderedHosts {
  const out: RenderedHosts = { folders: [], beside: [], outputs: [] };
  for (const { name, output } of outputs) {
    out.outputs.push({ name, output });
    const { files, docroot, docrootDir, beside = [] } = output;
    if (files.length > 0 || docroot !== undefined) {
      out.folders.push({
        name,
        files,
        ...(docroot === undefined ? {} : { docroot }),
        ...(docrootDir === undefined ? {} : { docrootDir }),
      });
    }
    for (const folder of beside) {
      if (out.beside.some((f) => f.dir === folder.dir)) throw new Error(`Internal: two hosts write ${folder.dir}.`);
      out.beside.push(folder);
    }
  }
  return out;
}
