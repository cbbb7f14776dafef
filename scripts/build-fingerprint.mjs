// scripts/build-fingerprint.mjs
// `npm run build:fingerprint`, the package build's last step: the hash of lib/ (src/pipeline/up-to-date.ts hashTree,
// what toolFingerprint would compute at every build) written once to lib/tool-fingerprint.txt. A build reads it
// instead of reading and hashing lib/ (2.8 MB with the command's bundle: 30 ms).

import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const lib = path.join(root, "lib");
const { hashTree } = await import(pathToFileURL(path.join(lib, "pipeline/up-to-date.js")).href);
// The .txt file itself is not among what hashTree reads.
writeFileSync(path.join(lib, "tool-fingerprint.txt"), `${hashTree(lib)}\n`);
