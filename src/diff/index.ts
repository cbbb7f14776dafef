// src/diff/index.ts
// `diff`: what a client will see change between two sites (content folders, builds or deployed URLs).

export { CHANGE_KINDS, diffSites, hasAny, type ChangeKind, type SiteDiff } from "./compare-sites.js";
export { FORMATS, notCompared, renderJson, renderMarkdown, renderText, type Format } from "./render.js";
export { readBoth, readSite } from "./from-argument.js";
export type { SiteDescription } from "./site.js";
