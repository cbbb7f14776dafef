// src/init/gitignore.ts
// What `init` appends to .gitignore: the lines for the build's outputs that are not there yet (in any spelling git
// treats alike: `dist`, `dist/`, `/dist/`). Never changes or removes a line.

/** The entries of `lines` that `text` does not ignore yet. */
export function missingLines(text: string, lines: readonly string[]): string[] {
  const norm = (line: string): string => line.trim().replace(/^\//, "").replace(/\/$/, "");
  const present = new Set(text.split(/\r?\n/).map(norm));
  return lines.filter((line) => !present.has(norm(line)));
}

/** `text` with `lines` appended (on a new line, after a comment saying who added them). */
export function appendLines(text: string, lines: readonly string[]): string {
  const head = text === "" || text.endsWith("\n") ? text : `${text}\n`;
  return `${head}${head === "" ? "" : "\n"}# build-index-site: the build's outputs\n${lines.join("\n")}\n`;
}
