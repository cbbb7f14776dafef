// test/docs/doc-commands.ts
// The commands the docs give a user: each shell line of a code block (and each code span that is a whole command),
// cut at `&&`, `;` and `|`, with its words as the shell would split them.

import { lineOf, type Unit } from "./doc-text.js";

export interface DocCommand {
  doc: string;
  line: number;
  /** The command as written (one piece of its line). */
  text: string;
  /** `build-index-site` (with or without npx), `npm-run`, or the program's name (`wrangler`, `rsync`, …). */
  tool: string;
  /** The words after the tool's name (for npm-run, after `npm run`). */
  args: string[];
}

/** Words as sh splits them: quotes group and are removed; `${{ … }}` (a CI expression) stays one word. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3]!);
  return words;
}

/** One command's text: its tool and arguments, or null for what is no command of interest. */
function parse(text: string): Pick<DocCommand, "tool" | "args"> | null {
  const words = shellWords(text);
  if (words[0] === "npx") words.shift();
  if (words[0] === "build-index-site") return { tool: "build-index-site", args: words.slice(1) };
  if (words[0] === "npm" && words[1] === "run") return { tool: "npm-run", args: words.slice(2) };
  if (words[0] === undefined || !/^[a-z][\w-]*$/.test(words[0])) return null;
  return { tool: words[0], args: words.slice(1) };
}

/** The pieces of a shell line: comments and redirections dropped, cut at `&&`, `||`, `;` and `|` outside quotes. */
function pieces(line: string): string[] {
  const bare = line
    .replace(/^\s*(?:\$ |- run: )/, "")
    .replace(/\s+#.*$/, "")
    .trim();
  return bare
    .split(/\s*(?:&&|\|\||;|\|)\s*(?=(?:[^"']|"[^"]*"|'[^']*')*$)/)
    .map((p) => p.replace(/\s+\d?>>?\s*\S+.*$/, "").trim()) // output redirected to a file: not an argument
    .filter((p) => p !== "");
}

/** Placeholders a syntax line uses (`<url>`, `[build]`, `a|b`, `…`): such a span describes a command, runs none. */
const SYNTAX = /<[^>]*>|\[[a-z]|\w\|\w|…/;

/** Every command a doc's units give: each line of its shell code blocks (and `$ ` lines of others), and its code
 * spans that are a command to copy. */
export function commandsOf(docUnits: readonly Unit[]): DocCommand[] {
  const found: DocCommand[] = [];
  for (const unit of docUnits) {
    if (unit.kind === "code") {
      const shell = ["sh", "bash", "shell", "console", "yaml", "yml"].includes(unit.lang);
      unit.text.split("\n").forEach((line, i) => {
        if (!shell && !line.startsWith("$ ")) return;
        for (const text of pieces(line)) {
          const parsed = parse(text);
          if (parsed !== null) found.push({ doc: unit.doc, line: unit.line + i, text, ...parsed });
        }
      });
      continue;
    }
    // A span is a command to copy when it starts with npx or gives a flag; `build-index-site verify` names one.
    // A span of another tool's command is taken too (`wrangler deploy`, `rsync -a dist/ server:/srv/icons/`).
    for (const m of unit.text.matchAll(/`((?:npx )?[a-z][\w-]* [^`]+)`/g)) {
      const own = /^(?:npx )?build-index-site /.test(m[1]!);
      if (SYNTAX.test(m[1]!) || (own && !/^(?:npx |npm run )| -/.test(m[1]!))) continue;
      for (const text of pieces(m[1]!.replace(/\s+/g, " "))) {
        const parsed = parse(text);
        if (parsed !== null) found.push({ doc: unit.doc, line: lineOf(unit, m[0]), text, ...parsed });
      }
    }
  }
  return found;
}
