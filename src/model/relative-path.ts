// src/model/relative-path.ts
// Whether a relative path that a record names stays inside its folder: the records read back (src/layout) and the
// hosts' record (src/hosts/record.ts) name files to read, write and remove by such paths.

/**
 * Whether a relative path that a record names (a manifest's line, the update journal's) lies inside its folder:
 * "/"-separated names, none empty, "." or "..". A line naming anything else is not this tool's and is ignored: the
 * build removes what its records list, and "../x" would be outside the folder. Most paths are checked by a few
 * substring tests only (a large manifest has very many).
 */
export function insideFolder(p: string): boolean {
  if (p === "" || p.startsWith("/")) return false;
  if (!p.startsWith(".") && !p.includes("/.") && !p.includes("//") && !p.endsWith("/")) return true;
  return p.split("/").every((name) => name !== "" && name !== "." && name !== "..");
}
