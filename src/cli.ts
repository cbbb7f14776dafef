// src/cli.ts
// I/O: the command line's entry (bin/build-index-site.js runs `main`). The program and each command live in
// src/cli/: program.ts assembles them; options.ts resolves the config file and the flags into one options object.

export { main, version } from "./cli/program.js";
export { dev, type DevOptions, type DevOptions as DevFlags } from "./cli/dev.js";
export type { JsonReport } from "./cli/shared.js";
export { hostsFlag } from "./cli/options.js";
export type { Io } from "./cli/output.js";
