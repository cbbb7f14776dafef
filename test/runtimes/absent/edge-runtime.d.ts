// test/runtimes/absent/edge-runtime.d.ts
// What the type checker sees for edge-runtime while test/runtimes is not installed (tsconfig.json's paths try the
// install first): loose types, so that `tsc` passes on a machine without the runtimes.
export declare const EdgeRuntime: any;
export type EdgeRuntime = any;
