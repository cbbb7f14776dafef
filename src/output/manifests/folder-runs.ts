// src/output/manifests/folder-runs.ts
// The folder of each path of a file list, in turn. The lists the build writes come grouped by folder (a large site's
// paths lie in a few thousand folders): a folder's name is sliced only when a path leaves the last one's.

export class FolderRuns {
  /** The folder of the last path given ("" at the top). */
  folder = "";
  private known = false;

  /** Moves to the folder of `p` ("a/b/c.json": "a/b"); true when it is not the last path's. */
  next(p: string): boolean {
    const slash = p.lastIndexOf("/");
    if (this.known && (slash < 0 ? this.folder === "" : slash === this.folder.length && p.startsWith(this.folder)))
      return false;
    this.known = true;
    this.folder = slash < 0 ? "" : p.slice(0, slash);
    return true;
  }
}
