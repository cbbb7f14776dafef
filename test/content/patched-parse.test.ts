// test/content/patched-parse.test.ts
// An edit of one mapping of icons.json is made from the parse before it (src/content/parse-json.ts: patchMember), and
// checked in that member alone (src/content/validate.ts: validateContent's `changed`): random texts and edits, each
// patch held to a parse of the new text (jsonc-parser's), and the diagnostics of a build that keeps its parses to one
// that does not.

import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { prng } from "../../scripts/prng.mjs";
import { buildModel, ModelParts, ParsedFiles } from "../../src/content/load-content.js";
import { parseJson, pointerToken } from "../../src/content/parse-json.js";
import { patchMember } from "../../src/content/patch-member.js";
import { readContent } from "../../src/content/read-content.js";
import type { JsonObject } from "../../src/model/json.js";
import { buildClock } from "../../src/model/time.js";
import { demoCopies, REPO, TEST_EPOCH } from "../helpers/fixtures.js";

/** Keys and values with what JSON escapes or a regex could trip on. */
const PIECES = [
  "php",
  'a"b',
  "x\\y",
  "é",
  "😀",
  "tab\there",
  "/",
  "u\u0001",
  "{",
  "}",
  ",",
  ":",
  " ",
  "png",
  ".",
  "~0",
];

function word(next: () => number): string {
  let s = "";
  const n = 1 + Math.floor(next() * 3);
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(next() * PIECES.length)]!;
  return s;
}

/** The map as an editor might leave it: JSON.stringify's layouts, CRLF, tabs, or all on one line. */
function print(map: Map<string, string>, next: () => number): string {
  const obj = Object.fromEntries(map);
  const style = Math.floor(next() * 5);
  if (style === 0) return `${JSON.stringify(obj, null, 4)}\n`;
  if (style === 1) return JSON.stringify(obj, null, 2).replaceAll("\n", "\r\n");
  if (style === 2) return JSON.stringify(obj, null, "\t");
  if (style === 3) return JSON.stringify(obj);
  return `{\n${[...map].map(([k, v]) => `  ${JSON.stringify(k)}  :${JSON.stringify(v)} `).join(",\n")}\n}\n`;
}

/** An edit of the text: most change one value on its line (`value`); the others change anything else. */
function edit(text: string, map: Map<string, string>, next: () => number): { after: string; value: boolean } {
  const other = (after: string): { after: string; value: boolean } => ({ after, value: false });
  const keys = [...map.keys()];
  const key = keys[Math.floor(next() * keys.length)]!;
  const at = text.indexOf(`${JSON.stringify(key)}`);
  const valueAt = text.indexOf(JSON.stringify(map.get(key)), at + JSON.stringify(key).length);
  const valueEnd = valueAt + JSON.stringify(map.get(key)).length;
  const r = next();
  if (r < 0.5)
    return { after: text.slice(0, valueAt) + JSON.stringify(word(next)) + text.slice(valueEnd), value: true }; // a new value
  if (r < 0.55) return other(`${text.slice(0, valueAt)}"\\ud800"${text.slice(valueEnd)}`); // half a surrogate pair
  if (r < 0.6) return other(`${text.slice(0, valueAt)}"a\tb"${text.slice(valueEnd)}`); // a raw tab in a string
  if (r < 0.65) return other(`${text.slice(0, valueAt)}"\\q"${text.slice(valueEnd)}`); // an escape JSON lacks
  if (r < 0.7) return other(`${text.slice(0, valueAt)}1${text.slice(valueEnd)}`); // a number
  if (r < 0.75) return other(`${text.slice(0, valueAt)}"a",\n"${key}": "b"${text.slice(valueEnd)}`); // a duplicate key
  if (r < 0.8)
    return other(text.slice(0, at) + JSON.stringify(word(next)) + text.slice(at + JSON.stringify(key).length)); // a new key
  if (r < 0.85) return other(text.slice(0, valueEnd) + text.slice(valueEnd + 1)); // the comma or brace after it removed
  if (r < 0.9) return other(`${text.slice(0, valueEnd)}, "added": "x.png"${text.slice(valueEnd)}`); // a member added on its line
  if (r < 0.95) return other(`${text.slice(0, valueAt)}"a\nb"${text.slice(valueEnd)}`); // a line break in a string
  if (r < 0.975) return other(`${text.slice(0, valueAt)} ${text.slice(valueAt)}`); // a space before the value (it moves)
  return other(text.replace(JSON.stringify(map.get(key)), JSON.stringify(map.get(key)))); // the same text
}

describe("patchMember: one member's new value from the parse before it", () => {
  test("every patch is a parse of the new text, and an edit of one value on its own line is patched", () => {
    let patched = 0;
    let valueEdits = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const next = prng(seed);
      const map = new Map<string, string>();
      const n = 1 + Math.floor(next() * 8);
      for (let i = 0; i < n; i++) map.set(word(next), word(next));
      const before = print(map, next);
      const parsedBefore = parseJson("icons.json", before);
      expect(parsedBefore.diagnostics, `seed ${seed}`).toEqual([]);
      const { after, value: valueEdit } = edit(before, map, next);
      const patch = patchMember(before, after, parsedBefore.value as JsonObject);
      const fresh = parseJson("icons.json", after);
      if (patch !== null) {
        patched++;
        expect(fresh.diagnostics, `seed ${seed}: a patched text parses without a problem`).toEqual([]);
        expect([...patch.value], `seed ${seed}`).toEqual([...(fresh.value as JsonObject)]);
        expect((fresh.value as JsonObject).get(patch.key), `seed ${seed}`).toBe(patch.value.get(patch.key));
        expect([...(parsedBefore.value as JsonObject)], `seed ${seed}: the value before is left as it was`).toEqual([
          ...map,
        ]);
        // Every value is where it was (the patched parse keeps the positions of the one before).
        for (const key of map.keys()) {
          const pointer = `/${pointerToken(key)}`;
          expect(fresh.positionOf(pointer), `seed ${seed}: ${pointer}`).toEqual(parsedBefore.positionOf(pointer));
        }
      }
      // A value edited on a line of its own (every layout but one line) is patched.
      if (valueEdit && before.includes("\n") && fresh.diagnostics.length === 0 && before !== after) {
        valueEdits++;
        expect(patch, `seed ${seed}: ${JSON.stringify(after)}`).not.toBeNull();
      }
    }
    expect(valueEdits).toBeGreaterThan(80);
    expect(patched).toBeGreaterThanOrEqual(valueEdits);
  });

  test("icons.json's schema checks each member alone (what validateContent relies on for a changed member)", async () => {
    const schema = JSON.parse(await readFile(path.join(REPO, "schemas/icons.schema.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(Object.keys(schema).sort()).toEqual([
      "$schema",
      "additionalProperties",
      "description",
      "propertyNames",
      "title",
      "type",
    ]);
    expect(Object.keys(schema.additionalProperties as object).sort()).toEqual(["description", "minLength", "type"]);
    expect(Object.keys(schema.propertyNames as object).sort()).toEqual(["minLength"]);
  });
});

describe("ParsedFiles: a patched parse and its member's check", () => {
  const clock = buildClock(TEST_EPOCH, 0);
  const content = demoCopies();

  test("edits of one mapping, valid and not, give the diagnostics of a build without kept parses", async () => {
    const dir = await content();
    const file = path.join(dir, "icons.json");
    // Two findings that stay where they are (a missing icon above the edited line and one below it): kept in place.
    const original = (await readFile(file, "utf8"))
      .replace('"folder.png"', '"gone.png"')
      .replace('"archive.png"', '"lost.png"');
    const parsed = new ParsedFiles();
    const parts = new ModelParts();
    // The php member's line as each edit leaves it: values, and a space before the value (its place moves: parsed).
    const lines = [
      '"php": "text.png",',
      '"php": "",',
      '"php": "no-such.png",',
      '"php":  "no-such.png",',
      '"php": "php.png",',
      '"php": "",',
      '"php": "text.png",',
    ];
    for (const [i, line] of lines.entries()) {
      await writeFile(file, original.replace(/"php": "php\.png",/, line));
      const kept = buildModel(await readContent(dir), { clock, parsed, parts });
      const fresh = buildModel(await readContent(dir), { clock });
      expect(kept.diagnostics, `edit ${i}: ${line}`).toEqual(fresh.diagnostics);
      expect([...(kept.parsed.icons!.value as JsonObject)]).toEqual([...(fresh.parsed.icons!.value as JsonObject)]);
      // An empty value is a schema error (icons.json is then not checked against icons/); the others are checked.
      if (line.includes('""'))
        expect(
          kept.diagnostics.some((d) => d.severity === "error" && d.pointer === "/php" && d.line !== undefined),
        ).toBe(true);
      else
        expect(
          kept.diagnostics.filter((d) => d.code === "ICON_MISSING" && d.line !== undefined).length,
          `edit ${i}`,
        ).toBeGreaterThanOrEqual(2);
    }
  });
});
