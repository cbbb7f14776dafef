// src/config-names.ts
// The config file's names: the file, its key in package.json, and its schema. The options layer reads the file
// (src/cli/config.ts); `init` writes it (src/init/project.ts).

export const CONFIG_NAME = "build-index-site";
export const CONFIG_FILE = "build-index-site.config.json";
export const CONFIG_SCHEMA = "build-index-site.config.schema.json";
