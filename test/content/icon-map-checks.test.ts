// test/content/icon-map-checks.test.ts
// The check of icons.json against icons/ that `dev` keeps between builds (src/content/cross-checks.ts: IconMapChecks)
// checks again only the changed mappings, and places the other findings again: through random edits (mappings changed,
// added, removed, renamed; icons/ changed; the text pretty-printed or on one line), every round's findings are those
// of a check without the memo, in the same order, with the same places and words.

import { describe, expect, test } from "vitest";
import { prng } from "../../scripts/prng.mjs";
import { crossCheck, IconMapChecks } from "../../src/content/cross-checks.js";
import { parseJson, type ParsedJson } from "../../src/content/parse-json.js";
import type { RawContent, RawFile } from "../../src/content/read-content.js";

const file = (name: string): RawFile => ({
  path: `icons/${name}`,
  absPath: `/content/icons/${name}`,
  size: 10,
  mtimeMs: 0,
});

function raw(names: readonly string[], dirExists = true): RawContent {
  const iconDirFiles = names.map(file);
  return {
    dir: "/content",
    json: {},
    configReference: null,
    iconsDirExists: dirExists,
    iconDirFiles,
    published: iconDirFiles,
    diagnostics: [],
  };
}

/** icons.json's parse: pretty-printed (a key a line), or on one line (`compact`: an edit moves the columns after it). */
const parsed = (map: Map<string, string>, compact = false): ParsedJson =>
  parseJson("/content/icons.json", `${JSON.stringify(Object.fromEntries(map), null, compact ? undefined : 4)}\n`);

/** Findings of icons.json and icons/ (with the memo or without), stripped of nothing: codes, pointers, places, words. */
const findings = (icons: ParsedJson, content: RawContent, checks?: IconMapChecks): unknown =>
  crossCheck({ raw: content, valid: { icons }, ...(checks === undefined ? {} : { iconMapChecks: checks }) });

describe("IconMapChecks: icons.json checked again where an edit reaches", () => {
  test("300 rounds of random edits: every round finds what a check without the memo finds", () => {
    const seed = Number(process.env.ICON_CHECK_SEED ?? 28);
    const next = prng(seed);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
    let names = ["text.png", "folder.png", "php.png", "js.svg", "notes.txt", "Case.png"];
    const good = ["text.png", "folder.png", "php.png", "js.svg"];
    const values = [...names, "missing.png", "case.png", "../up.png", "", "other.gif"];
    const map = new Map<string, string>([
      ["file", "text.png"],
      ["folder", "folder.png"],
    ]);
    for (let i = 0; i < 40; i++) map.set(`e${i}`, i % 3 === 0 ? "php.png" : "js.svg");
    const checks = new IconMapChecks();
    let rounds = 0;
    let clean = 0;
    for (let round = 0; round < 300; round++) {
      const keys = [...map.keys()];
      const r = next();
      if (r < 0.5)
        map.set(pick(keys), pick(good)); // a mapping changed to an icon
      else if (r < 0.56)
        map.set(pick(keys), pick(values)); // to anything
      else if (r < 0.6)
        for (const [k, v] of map)
          if (!good.includes(v))
            map.set(k, "php.png"); // every finding mended
          else if (r < 0.7)
            map.set(`n${round}`, pick(names)); // added
          else if (r < 0.78)
            map.delete(pick(keys)); // removed
          else if (r < 0.84) {
            // renamed, in its place
            const from = pick(keys);
            const entries = [...map].map(([k, v]): [string, string] => [k === from ? `${from}x` : k, v]);
            map.clear();
            for (const [k, v] of entries) map.set(k, v);
          } else if (r < 0.9)
            names = names.includes("notes.txt") ? names.filter((n) => n !== "notes.txt") : [...names, "notes.txt"]; // icons/ changed
          else if (r < 0.92)
            map.set("E0", "php.png"); // a key that only case tells apart
          else if (r < 0.94) map.delete("E0");
          else if (r < 0.96) map.set("$schema", `v${round}`); // quoted by its warning
      // else: nothing changed
      const icons = parsed(map, next() < 0.5);
      const content = raw(names);
      const kept = findings(icons, content, checks);
      expect(kept, `seed ${seed}, round ${round}`).toEqual(findings(icons, content));
      if ((kept as unknown[]).length === 0) clean++;
      if (process.env.ICON_CHECK_SHOW) console.log(round, (kept as unknown[]).length);
      rounds++;
    }
    expect(rounds).toBe(300);
    expect(clean, "the rounds go through clean checks (the memo's path) and findings").toBeGreaterThan(30);
    expect(clean).toBeLessThan(270);
  });

  test("a changed mapping that finds something is reported, in the file's order, after clean rounds", () => {
    const map = new Map([
      ["file", "text.png"],
      ["folder", "folder.png"],
      ["php", "php.png"],
      ["js", "php.png"],
    ]);
    const names = ["text.png", "folder.png", "php.png", "Js.png"];
    const checks = new IconMapChecks();
    expect(findings(parsed(map), raw(names), checks)).toEqual([]);
    map.set("php", "missing.png");
    map.set("js", "js.png");
    const icons = parsed(map);
    const found = findings(icons, raw(names), checks) as Array<{ code: string; pointer: string; hint?: string }>;
    expect(found.map((d) => [d.code, d.pointer])).toEqual([
      ["ICON_MISSING", "/php"],
      ["ICON_MISSING", "/js"],
    ]);
    expect(found[1]!.hint, "a name that differs only in case is named").toContain("icons/Js.png exists");
    expect(found).toEqual(findings(icons, raw(names)));
    // Mended, one of them: its finding goes, the other's stays (placed again: the text is on one line now).
    map.set("php", "php.png");
    const mended = findings(parsed(map, true), raw(names), checks) as Array<{
      code: string;
      pointer: string;
      column?: number;
    }>;
    expect(mended.map((d) => [d.code, d.pointer])).toEqual([["ICON_MISSING", "/js"]]);
    expect(mended).toEqual(findings(parsed(map, true), raw(names)));
  });

  test("the keys' findings are placed again after an edit moves them, and \"$schema\"'s warning quotes its new value", () => {
    const names = ["text.png", "folder.png", "php.png", "a-longer-name.png"];
    const map = new Map([
      ["file", "text.png"],
      ["folder", "folder.png"],
      ["php", "php.png"],
      ["PY", "php.png"],
      ["$schema", "x"],
    ]);
    const checks = new IconMapChecks();
    const first = findings(parsed(map, true), raw(names), checks) as Array<{ code: string; column?: number }>;
    expect(first.map((d) => d.code)).toEqual(["ICONS_SCHEMA_KEY", "KEY_NOT_LOWERCASE"]);
    map.set("php", "a-longer-name.png"); // before "PY" on the one line: its warning's column moves
    const moved = findings(parsed(map, true), raw(names), checks) as Array<{ code: string; column?: number }>;
    expect(moved[1]!.column).toBeGreaterThan(first[1]!.column!);
    expect(moved).toEqual(findings(parsed(map, true), raw(names)));
    map.set("$schema", "y");
    const quoted = findings(parsed(map, true), raw(names), checks) as Array<{ message: string }>;
    expect(quoted[0]!.message).toContain('"y"');
    expect(quoted).toEqual(findings(parsed(map, true), raw(names)));
  });

  test("icons/ losing a file that an unchanged mapping names is found: the files are part of what is kept", () => {
    const map = new Map([
      ["file", "text.png"],
      ["folder", "folder.png"],
      ["php", "php.png"],
    ]);
    const checks = new IconMapChecks();
    expect(findings(parsed(map), raw(["text.png", "folder.png", "php.png"]), checks)).toEqual([]);
    const found = findings(parsed(map), raw(["text.png", "folder.png", "php.svg"]), checks) as Array<{
      code: string;
      pointer: string;
    }>;
    expect(found.map((d) => [d.code, d.pointer])).toEqual([["ICON_MISSING", "/php"]]);
  });

  test('icons/ appearing is found (no folder icon, no "folder" key), with the same keys and the same (no) files', () => {
    const checks = new IconMapChecks();
    expect(findings(parsed(new Map()), raw([], false), checks)).toEqual([]);
    const found = findings(parsed(new Map()), raw([]), checks) as Array<{ code: string; pointer: string }>;
    expect(found.map((d) => d.code)).toContain("ICON_MISSING"); // icons.json's: no folder icon (and text.png missing too)
    expect(found).toEqual(findings(parsed(new Map()), raw([])));
  });

  test("the same parse checked again gives its findings as they were, each build its own copies", () => {
    const map = new Map([
      ["file", "text.png"],
      ["folder", "folder.png"],
      ["php", "missing.png"],
    ]);
    const icons = parsed(map);
    const checks = new IconMapChecks();
    const first = findings(icons, raw(["text.png", "folder.png"]), checks) as Array<{ message: string }>;
    const words = first[0]!.message;
    first[0]!.message = "changed by a caller";
    const again = findings(icons, raw(["text.png", "folder.png"]), checks) as Array<{ message: string }>;
    expect(again[0]!.message).toBe(words);
    expect(again).toEqual(findings(icons, raw(["text.png", "folder.png"])));
  });
});
