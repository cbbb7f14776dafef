// bench/paths.mjs
// Where the bench finds the tool and the fixtures, and where it works and writes its results and its page.

import path from "node:path";
import { fileURLToPath } from "node:url";
import { CACHE_DIR } from "./generate-content.mjs";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const BIN = path.join(REPO, "bin/build-index-site.js");
/** The real fixtures (indexer-1.2.0-r2, indexer-1.1.15), beside the repository. */
export const FIXTURES = path.resolve(REPO, "../shared/fixtures");
/** Built sites and floor copies: under the content cache, outside the repository. */
export const WORK = path.join(CACHE_DIR, "work");
/** Each run's report (<name>.md) and figures (<name>.json). */
export const RESULTS = path.join(REPO, "bench/results");
/** The page that shows where the project stands, and the template it is written from. */
export const PAGE = path.join(REPO, "docs/benchmark.md");
export const TEMPLATE = path.join(REPO, "bench/benchmark.template.md");
