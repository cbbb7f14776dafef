// src/content/content-listings.ts
// What `dev` keeps of the published folders' walks between builds, while its watcher reports no change under them.

import type { RawFile } from "./raw-content.js";

/** A file of a published folder as a walk finds it (RawFile without what the build reads of its bytes). */
type ListedFile = Pick<RawFile, "path" | "absPath" | "size" | "mtimeMs" | "stamp">;

/**
 * What `dev` keeps of the published folders' walks between builds: each folder's files as the last walk found them,
 * kept while the watcher reports no change under the folder (finding and lstat-ing a large icons/ would cost every
 * rebuild, an edit of icons.json included). Only a walk that met no symbolic link and reported nothing is kept. A change the watcher reports during a walk leaves that walk unkept.
 */
export class ContentListings {
  /** Changes reported under each published folder (by its name), and anywhere (a change without a path). */
  private readonly changes = new Map<string, number>();
  private everywhere = 0;
  private broken = false;
  private readonly kept = new Map<
    string,
    { real: string; changes: number; everywhere: number; exists: boolean; files: ListedFile[] }
  >();

  /** The watcher saw `rel` (relative to the content folder) change; without a path, anything may have changed. */
  changed(rel?: string): void {
    if (rel === undefined) this.everywhere++;
    else {
      const top = rel.split(/[\\/]/)[0]!;
      this.changes.set(top, (this.changes.get(top) ?? 0) + 1);
    }
  }

  /** The watcher failed: changes may go unreported, so no walk is kept from now on. */
  fail(): void {
    this.broken = true;
    this.kept.clear();
  }

  /** What to keep a walk of `folder` begun now with. */
  mark(folder: string): { changes: number; everywhere: number } {
    return { changes: this.changes.get(folder) ?? 0, everywhere: this.everywhere };
  }

  /** The kept walk of `folder` of the content folder `real`, while no change was reported under it. */
  get(real: string, folder: string): { exists: boolean; files: readonly ListedFile[] } | undefined {
    const kept = this.kept.get(folder);
    if (kept === undefined) return undefined;
    if (kept.real === real && kept.changes === (this.changes.get(folder) ?? 0) && kept.everywhere === this.everywhere)
      return kept;
    this.kept.delete(folder);
    return undefined;
  }

  set(
    real: string,
    folder: string,
    mark: { changes: number; everywhere: number },
    exists: boolean,
    files: readonly RawFile[],
  ): void {
    if (this.broken) return;
    this.kept.set(folder, {
      real,
      ...mark,
      exists,
      files: files.map((f) => ({
        path: f.path,
        absPath: f.absPath,
        size: f.size,
        mtimeMs: f.mtimeMs,
        ...(f.stamp === undefined ? {} : { stamp: f.stamp }),
      })),
    });
  }
}
