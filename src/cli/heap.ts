// src/cli/heap.ts
// I/O: how far V8 lets the heap grow between full collections, by what a run does. A build that writes every file
// holds its live data steady while it writes (a ×100 site: some 300 MB for 640,000 files), but V8's own growth lets the
// heap reach several times that before it collects: held to 20%, the peak stays near what is live, at no cost in time
// for small sites (bench/results/latest.md). A rebuild in place writes a handful of files: V8's own growth makes it
// faster (at ×100, a one-mapping rebuild 0.6-1.3 s, for some 80 MB more at its peak). V8 reads the flag at each
// collection, so a run can change it once it knows which it is. Imported by the bundle's loader too: this module
// imports nothing of the tool.

import { setFlagsFromString } from "node:v8";

/** The flag every command starts with (src/cli/load-bundle.ts; the code cache is made under it). */
const HELD_HEAP_FLAG = "--heap-growing-percent=20";

/** For a build that writes in full: the heap held near what is live. */
export const holdHeap = (): void => setFlagsFromString(HELD_HEAP_FLAG);

/** For a rebuild in place: V8's own growth. */
export const freeHeap = (): void => setFlagsFromString("--heap-growing-percent=0");
