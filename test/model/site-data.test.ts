// test/model/site-data.test.ts
// The catalogue's site data as text (src/model/site-data.ts: siteDataText) is JSON.stringify of the site data, byte for
// byte, whether each part is printed now or taken from what `dev` kept of an earlier model that shares it
// (src/catalogue/index.ts: CatalogueMemo).

import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { CatalogueMemo } from "../../src/catalogue/index.js";
import { buildModel, ModelParts, ParsedFiles } from "../../src/content/load-content.js";
import { readContent } from "../../src/content/read-content.js";
import { fromSiteData, siteDataText, toSiteData, type SiteDataPart } from "../../src/model/site-data.js";
import { buildClock } from "../../src/model/time.js";
import { extensionMapOf, iconMapOf, type SiteModel } from "../../src/model/types.js";
import type { JsonObject } from "../../src/model/json.js";
import { demoCopies, haveRealFixtures, realFixture, REAL_FIXTURES, TEST_EPOCH } from "../helpers/fixtures.js";

const clock = buildClock(TEST_EPOCH, 0);
const content = demoCopies();
const plain = (model: SiteModel): string => siteDataText(model, (_, print) => print());

/** A model whose texts need every escape JSON has, and whose objects are empty or nested. */
function hostileModel(): SiteModel {
  const odd = 'q"uote\\back\u2028line\u0000nul\ud83d\ude00emoji\ud800lone</script>';
  const json = (entries: Array<[string, unknown]>): JsonObject => new Map(entries) as JsonObject;
  return {
    baseUrl: "https://x.example/p",
    service: odd,
    serviceVersion: "1",
    description: "",
    versions: [odd, "1.0"],
    buildTime: 1,
    config: {
      json: json([
        [odd, json([["a", [1, -0.5, 1e21, null, true, json([])]]])],
        ["version", "2"],
      ]),
      version: "2",
      lastModified: 3,
    },
    extensionMap: extensionMapOf(json([[odd, "x"]]), json([]), 4),
    iconMap: iconMapOf(
      json([
        [odd, `${odd}.png`],
        ["php", "php.png"],
      ]),
      5,
    ),
    iconDirFiles: new Map([
      [`${odd}.png`, { size: 0, lastModified: 0 }],
      ["php.png", { size: 10, lastModified: 7 }],
    ]),
    configReference: null,
  };
}

describe("siteDataText", () => {
  test("is JSON.stringify of toSiteData, and reads back to the model, for a hostile model and the demo", async () => {
    const demo = buildModel(await readContent(await content()), { clock }).model!;
    for (const model of [hostileModel(), demo]) {
      const text = plain(model);
      expect(text).toBe(JSON.stringify(toSiteData(model)));
      expect(toSiteData(fromSiteData(JSON.parse(text)))).toEqual(toSiteData(model));
    }
  });

  test.skipIf(!haveRealFixtures)("is JSON.stringify of toSiteData for the real fixtures", async () => {
    for (const name of REAL_FIXTURES) {
      const model = buildModel(await readContent(realFixture(name)), { clock }).model!;
      expect(plain(model), name).toBe(JSON.stringify(toSiteData(model)));
    }
  });

  test("with the texts dev keeps: only the parts an edit changed are printed again, and the text is a fresh one's", async () => {
    const dir = await content();
    const parsed = new ParsedFiles();
    const parts = new ModelParts();
    const memo = new CatalogueMemo();
    const printed: SiteDataPart[] = [];
    const next = async (): Promise<string> => {
      const model = buildModel(await readContent(dir), { clock, parsed, parts }).model!;
      printed.length = 0;
      const text = siteDataText(model, (name, print) =>
        memo.partText(model, name, () => (printed.push(name), print())),
      );
      expect(text).toBe(JSON.stringify(toSiteData(buildModel(await readContent(dir), { clock }).model!)));
      return text;
    };
    await next();
    // icons.json's part is printed by the memo itself, entry by entry (test/catalogue/view-memo.test.ts holds it to
    // JSON.stringify's): the other parts through `print`.
    expect(printed.sort()).toEqual(["config", "extensionMap", "iconDirFiles"]);
    const file = path.join(dir, "icons.json");
    await writeFile(file, (await readFile(file, "utf8")).replace('"php": "php.png"', '"php": "text.png"'));
    expect(await next()).toContain('["php","text.png"]');
    expect(printed, "icons.json alone changed: no other part printed again").toEqual([]);
    await next();
    expect(printed, "nothing changed").toEqual([]);
  });
});
