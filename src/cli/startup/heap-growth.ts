// src/cli/startup/heap-growth.ts
// I/O: how far V8 lets the heap grow between full collections, by what a run does. A build that writes every file
// holds its live data steady while it writes, but V8's own growth lets the heap reach several times that before it
// collects: held, the peak stays near what is live (bench/results/ has the figures). A rebuild in place writes a
// handful of files, and is faster with V8's own growth. V8 reads the flag at each collection, so a run can change it
// once it knows which it is. Imported by the bundle's loader too: this module imports nothing of the tool.

import { setFlagsFromString } from "node:v8";

/** The flag every command starts with (src/cli/startup/code-cache.ts; the code cache is made under it). */
const HELD_HEAP_FLAG = "--heap-growing-percent=20";

/** For a build that writes in full: the heap held near what is live. */
export const holdHeap = (): void => setFlagsFromString(HELD_HEAP_FLAG);

/** For a rebuild in place: V8's own growth. */
export const freeHeap = (): void => setFlagsFromString("--heap-growing-percent=0");
