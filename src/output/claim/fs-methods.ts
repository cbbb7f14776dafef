// src/output/claim/fs-methods.ts
// The file-system calls that claiming and writing an output folder make, replaceable so that tests can make any of
// them fail (a full disk) or stop a build at one of them.

import { chmod, link, mkdir, mkdtemp, readFile, rename, rm, stat, unlink, utimes, writeFile } from "node:fs/promises";
import { removeTree } from "./remove-tree.js";

export interface WriteMethods {
  mkdir: typeof mkdir;
  mkdtemp: typeof mkdtemp;
  writeFile: typeof writeFile;
  rename: typeof rename;
  rm: typeof rm;
  unlink: typeof unlink;
  stat: typeof stat;
  link: typeof link;
  utimes: typeof utimes;
  readFile: typeof readFile;
  chmod: typeof chmod;
}

/** Node's own calls, but a removal that goes a bounded number of files at a time (remove-tree.ts). */
export const FS: WriteMethods = {
  mkdir,
  mkdtemp,
  writeFile,
  rename,
  rm: removeTree,
  unlink,
  stat,
  link,
  utimes,
  readFile,
  chmod,
};
