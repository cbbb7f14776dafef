// src/pipeline/memo.ts
// What `dev` keeps in memory between builds, and the one place its watcher reports to.

import path from "node:path";
import type { CatalogueMemo } from "../catalogue/index.js";
import type { ContentCache } from "../content/content-cache.js";
import type { ModelParts, ParsedFiles } from "../content/load-content.js";
import { ContentListings } from "../content/read-content.js";
import type { EdgeDataMemo } from "../edge/index.js";
import type { RenderedHosts } from "../hosts/index.js";
import type { HostMeasures } from "../hosts/limits.js";
import type { PublishMemo } from "../output/publish.js";
import type { AnswerInputsMemo } from "../routes/answer-inputs.js";
import type { RoutesMemo } from "../routes/build-routes.js";

/**
 * What `dev` keeps between builds (`changed`, `watchFailed` are its watcher's reports). The hosts' files and their
 * measures are made from the route table, the service's name, the name of --out and the hosts chosen alone
 * (src/hosts), and an edit of a mapping or an icon leaves all of these as they were.
 */
export class BuildMemo {
  /** The facts of the content's files (src/content/content-cache.ts), from the first build on: a file is read again
   * where the watcher saw a change (or its size, times or inode differ). */
  contentCache: ContentCache | null = null;
  /** `record`: the hosts' record as printed from these (its sha1s are costly), once it is. */
  hosts: { key: string; rendered: RenderedHosts; measures: HostMeasures[]; record?: string } | null = null;
  /** The content's JSON files as parsed and checked, by the sha1 of their bytes (src/content/load-content.ts). */
  parsed: ParsedFiles | null = null;
  /** The published folders' files, kept while the watcher reports no change in them (src/content/read-content.ts):
   * `dev` tells it each change it sees. */
  readonly listings = new ContentListings();
  /** --out's manifest as the last update left it (src/output/publish.ts), made with the first build. */
  publish: PublishMemo | null = null;
  /** The route table's lists of members, made of the model's keys (src/routes/build-routes.ts), made with the first
   * build. */
  routes: RoutesMemo | null = null;
  /** The last model's parts (src/content/load-content.ts): what is made of an unchanged part alone is made once. */
  modelParts: ModelParts | null = null;
  /** The handler's data: its rows' texts and its shards (src/edge/data-files.ts), made as they are. */
  edgeData: EdgeDataMemo | null = null;
  /** The catalogue's rows' markup and the site data's parts' texts (src/catalogue/index.ts), made as they are. */
  catalogue: CatalogueMemo | null = null;
  /** The answers' prints, each made again when what it is made of changed (src/routes/answer-inputs.ts). */
  answerInputs: AnswerInputsMemo | null = null;

  /** The watcher saw `rel` change under the content folder (whose real path is `contentReal`), or anything (none). */
  changed(contentReal: string, rel?: string): void {
    this.contentCache?.forget(rel === undefined ? undefined : path.join(contentReal, rel));
    this.listings.changed(rel);
  }

  /** The watcher failed: a change may go unseen, so every build walks the published folders again. */
  watchFailed(): void {
    this.listings.fail();
  }
}
