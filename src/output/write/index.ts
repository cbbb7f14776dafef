// src/output/write/index.ts
// The two writers of a folder, for src/output/publish.ts:
//  - full.ts writes a folder whole beside its place and swaps it in (--force, the first build, other hosts). It is
//    async and its file-system calls are injectable (claim/fs-methods.ts), because a full write is where tests make
//    any call fail (a full disk, a kill between the swap's renames) and prove the old folder intact; without injected
//    calls its per-file calls run synchronously all the same (file-ops.ts), shared, for a folder of many files, with a second
//    thread that writes new files and links while the main thread produces the next ones (write-thread.ts).
//  - in-place.ts brings a folder the last build wrote up to date: the files that change, each written beside its
//    target and renamed over it, under the update journal (journal.ts). It is synchronous throughout, like the full
//    writer's own per-file calls: a synchronous call costs less than a trip through libuv's thread pool. It takes no
//    injected calls: a build given them is written in full (publish.ts), and tests stop an update midway by its
//    per-file hook or a kill instead.

export { writeOutput } from "./full.js";
export { updateInPlace } from "./in-place.js";
export type { UpdateOptions, UpdateStats, WriteOptions, WriteStats } from "./options.js";
export { openJournal, readJournal, removeJournal, removeTemporaries, type Dirty } from "./journal.js";
export { keptByInputs } from "./kept-files.js";
