// test/routes/answer-inputs.test.ts
// What a rebuild may keep without producing it (src/routes/answer-inputs.ts): after random edits of a hand-made
// site, every answer file whose inputs count as unchanged has the same text as before, while the edited keys' answers
// are produced again. The end-to-end check, on disk and against a full build, is test/pipeline/incremental-property.ts.

import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../src/model/json.js";
import { iconMapOf, type SiteModel } from "../../src/model/types.js";
import { AnswerOutput } from "../../src/routes/answer-files.js";
import {
  AnswerInputsMemo,
  answerInputs,
  changedInputs,
  changedPrints,
  parseAnswerInputs,
  printAnswerInputs,
  type AnswerInputs,
} from "../../src/routes/answer-inputs.js";

/** Whether an answer whose inputs have `key` ("" for the global print alone) keeps its bytes from `last` to `now`:
 * the global print is the same, and so is its key's print (a key only one build has counts as changed). */
function unchangedInputs(last: AnswerInputs | null, now: AnswerInputs): (key: string) => boolean {
  const changed = changedInputs(last, now);
  return (key) => changed !== null && (key === "" || (!changed.has(key) && now.keys.has(key)));
}
import { buildRoutes } from "../../src/routes/build-routes.js";
import { makeSite, T } from "../helpers/site.js";
import { eachRound } from "../helpers/site-edits.js";

const TOOL = "tool-1";

/** Path → text of every answer file of a site, and what the build would keep of `before`'s. */
function answersOf(site: SiteModel): Map<string, { text: string; key: string | null }> {
  const out = new Map<string, { text: string; key: string | null }>();
  for (const f of buildRoutes(site).files.outputs()) out.set(f.path, { text: f.produce(), key: f.inputKey() });
  return out;
}

describe("answer inputs", () => {
  it("keeps only answers whose text is unchanged, after 300 random edits (and keeps most of them)", () => {
    let kept = 0;
    let compared = 0;
    eachRound(7, 300, ({ before, edits, after }) => {
      const was = answersOf(before);
      const unchanged = unchangedInputs(answerInputs(before, TOOL), answerInputs(after, TOOL));
      for (const [file, now] of answersOf(after)) {
        const old = was.get(file);
        if (old === undefined || now.key === null || !unchanged(now.key)) continue;
        kept++;
        expect(now.text, `${file} after ${edits.map((e) => e.name).join("; ")}`).toBe(old.text);
      }
      compared += was.size;
    });
    // Edits of one key leave most answers alone: the test would pass vacuously if nothing were ever kept.
    expect(kept).toBeGreaterThan(compared / 4);
  });

  it("finds the same changed keys from the records' texts as from the prints, after 300 random edits", () => {
    let aligned = 0;
    let changedSome = 0;
    eachRound(11, 300, ({ before, edits, after }, next) => {
      const tool = next() < 0.1 ? "tool-2" : TOOL;
      const [a, b] = [answerInputs(before, TOOL), answerInputs(after, tool)];
      const expected = changedInputs(a, b);
      const got = changedPrints(printAnswerInputs(a), printAnswerInputs(b), b);
      expect(got === null ? null : [...got].sort(), edits.map((e) => e.name).join("; ")).toEqual(
        expected === null ? null : [...expected].sort(),
      );
      // The texts' own path (the same keys in the same order) must be taken, not only the parsed one.
      if (tool === TOOL && [...a.keys.keys()].join("\n") === [...b.keys.keys()].join("\n")) aligned++;
      if (expected !== null && expected.size > 0) changedSome++;
    });
    expect(aligned).toBeGreaterThan(50);
    expect(changedSome).toBeGreaterThan(100);
    expect(
      changedPrints(null, printAnswerInputs(answerInputs(makeSite(), TOOL)), answerInputs(makeSite(), TOOL)),
    ).toBeNull();
  });

  it("makes with dev's memo, across 300 rounds of random edits, the prints and text made without it", () => {
    const memo = new AnswerInputsMemo();
    let rounds = 0;
    eachRound(13, 300, ({ before, edits, after }, next) => {
      const tool = next() < 0.1 ? "tool-2" : TOOL;
      for (const [site, name] of [
        [before, "before"],
        [after, edits.map((e) => e.name).join("; ")],
      ] as const) {
        const got = memo.make(site, tool);
        const fresh = new AnswerInputsMemo().make(site, tool);
        expect(got.text, name).toBe(fresh.text);
        expect([...got.inputs.keys], name).toEqual([...fresh.inputs.keys]);
        expect(got.inputs.global, name).toBe(fresh.inputs.global);
        // The text is the prints' (and reads back to them).
        expect(got.text, name).toBe(printAnswerInputs(got.inputs));
      }
      rounds++;
    });
    expect(rounds).toBe(300);
    // A mapping moved to another icon whose file prints the same (size and time): the mapping's print changes.
    const twins = makeSite({
      iconDirFiles: new Map([...makeSite().iconDirFiles, ["twin.png", { size: 15, lastModified: T - 5 }]]),
    });
    const moved = {
      ...twins,
      iconMap: iconMapOf(new Map([...twins.iconMap.entries, ["php", "twin.png"]]) as JsonObject, T - 300),
    };
    memo.make(twins, TOOL);
    expect(memo.make(moved, TOOL).inputs.keys.get("e:php")).toBe(
      JSON.stringify(["index_php", "view_php", "twin.png", `15 ${T - 5}`]),
    );
    // A mapping renamed (as many keys as before, one of them another): made anew, as without the memo.
    const renamed = {
      ...moved,
      iconMap: iconMapOf(
        new Map([...moved.iconMap.entries].map(([k, v]) => [k === "pas" ? "ada" : k, v])) as JsonObject,
        T - 300,
      ),
    };
    expect(memo.make(renamed, TOOL).text).toBe(new AnswerInputsMemo().make(renamed, TOOL).text);
  });

  it("produces every answer again when the tool or a global input changes, and a key it does not know", () => {
    const site = makeSite();
    expect(unchangedInputs(answerInputs(site, TOOL), answerInputs(site, "tool-2"))("e:php")).toBe(false);
    expect(
      unchangedInputs(answerInputs(site, TOOL), answerInputs({ ...site, baseUrl: "https://other.example" }, TOOL))(""),
    ).toBe(false);
    // The build time (new at every build without SOURCE_DATE_EPOCH) is versionCheck's alone.
    const later = unchangedInputs(answerInputs(site, TOOL), answerInputs({ ...site, buildTime: T + 1 }, TOOL));
    expect(later("v")).toBe(false);
    expect(later("e:php")).toBe(true);
    expect(later("i:php.png")).toBe(true);
    expect(later("")).toBe(true);
    expect(unchangedInputs(null, answerInputs(site, TOOL))("e:php")).toBe(false);
    const same = unchangedInputs(answerInputs(site, TOOL), answerInputs(site, TOOL));
    expect(same("e:php")).toBe(true);
    expect(same("")).toBe(true);
    expect(same("e:nothing-maps-this")).toBe(false);
  });

  it("gives single answers no key: they are always produced", () => {
    const outputs = [...buildRoutes(makeSite()).files.outputs()];
    const byPath = new Map(outputs.map((f) => [f.path, f]));
    expect(byPath.get("api/config.json")!.inputKey()).toBeNull();
    expect(byPath.get("api/icons.json")!.inputKey()).toBeNull();
    expect(byPath.get("api/getExtensionSetting/indexing/php.json")!.inputKey()).toBe("e:php");
    expect(byPath.get("api/findIcon/file-upper/PHP.json")!.inputKey()).toBe("e:php");
    expect(byPath.get("api/icon/php.png.json")!.inputKey()).toBe("i:php.png");
    expect(byPath.get("api/versionCheck/1.2.0.json")!.inputKey()).toBe("v");
    expect(byPath.get("api/findIcon/folder/php.json")!.inputKey()).toBe("");
    expect(outputs.every((f) => f instanceof AnswerOutput)).toBe(true);
  });

  it("answers inputsUnchanged as its key would, for any keys changed", () => {
    const site = makeSite();
    const outputs = [...buildRoutes(site).files.outputs()];
    const keys = new Set(outputs.map((f) => f.inputKey()).filter((k): k is string => k !== null && k !== ""));
    // Every member's key is one the prints hold: a key they left out could never count as changed.
    const printed = answerInputs(site, TOOL).keys;
    for (const key of keys) expect(printed.has(key), key).toBe(true);
    for (const every of [1, 2, 3, 7]) {
      const changed = new Set([...keys].filter((_, i) => i % every === 0));
      expect(changed.size).toBeGreaterThan(1);
      const tests = new Map();
      for (const f of outputs) {
        const key = f.inputKey();
        expect(f.inputsUnchanged(changed, tests), f.path).toBe(key !== null && !changed.has(key));
      }
    }
    const none = new Map();
    for (const f of outputs) expect(f.inputsUnchanged(new Set(), none), f.path).toBe(f.inputKey() !== null);
  });

  it("prints and reads back any key, and reads nothing from a file it does not know", () => {
    // Prints are JSON text (answerInputs makes them so), written into the record as they are.
    const inputs = {
      global: 'g\n"x"',
      keys: new Map([
        ["e:__proto__", "1"],
        ['e:a"b\nc', JSON.stringify(['x\u2028"', null])],
        ["i:ü.png", '"-"'],
      ]),
    };
    expect(parseAnswerInputs(printAnswerInputs(inputs))).toEqual(inputs);
    const site = answerInputs(makeSite(), TOOL);
    expect(parseAnswerInputs(printAnswerInputs(site))).toEqual(site);
    // The first format quoted each print again: such a record is not read (every answer is produced again).
    for (const text of [
      "",
      "{",
      "[]",
      '{"format":1,"global":"g","keys":{"a":"1"}}',
      '{"format":3,"global":"g","keys":{}}',
    ]) {
      expect(parseAnswerInputs(text), text).toBeNull();
    }
  });
});
