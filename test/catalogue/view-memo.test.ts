// test/catalogue/view-memo.test.ts
// What `dev` keeps of the catalogue's view (src/catalogue/view.ts: ViewMemo) and of its pages' prints
// (src/catalogue/index.ts: pagePrints): after each of 300 rounds of random edits, the view made with the memo is the
// one made without it, and so is every page's print.

import { describe, expect, it } from "vitest";
import { CatalogueMemo, pagePrints, type PrintMemo } from "../../src/catalogue/index.js";
import { siteDataText, toSiteData } from "../../src/model/site-data.js";
import { cataloguePlan } from "../../src/catalogue/page.js";
import { catalogueView, ViewMemo, type ViewInput } from "../../src/catalogue/view.js";
import type { Diagnostic } from "../../src/errors.js";
import type { JsonObject } from "../../src/model/json.js";
import { modelChanges, type ModelMaps } from "../../src/model/changed-values.js";
import { iconMapOf, type SiteModel } from "../../src/model/types.js";
import { eachRound } from "../helpers/site-edits.js";
import { makeSite, T } from "../helpers/site.js";

/** The content as read for `site`: each icons/ file with a hash and pixel size made of its name, size and `salt`. */
function inputOf(site: SiteModel, salt = ""): ViewInput {
  const iconDirFiles = [...site.iconDirFiles].map(([name, info]) => ({
    path: `icons/${name}`,
    absPath: `/content/icons/${name}`,
    size: info.size,
    mtimeMs: info.lastModified * 1000,
    facts: {
      hash: Buffer.from(`${name} ${info.size}${salt}`),
      image: { type: "png", width: info.size + salt.length, height: 16 },
    },
  }));
  const missing: Diagnostic[] = [
    {
      severity: "warning",
      code: "ICON_MISSING",
      file: "icons.json",
      line: 3,
      column: 5,
      message: "gone",
      hint: "add it",
    },
  ];
  return { model: site, raw: { iconDirFiles, published: [] }, diagnostics: missing };
}

/** Each site as `dev` gives it: with its changes since the one given before (src/content/load-content.ts: ModelParts). */
function modelsInTurn(): (site: SiteModel) => SiteModel {
  let last: ModelMaps | null = null;
  return (site) => {
    const given = last === null ? site : { ...site, changes: modelChanges(last, site) };
    last = site;
    return given;
  };
}

const printsOf = (input: ViewInput, memo?: { view: ViewMemo; prints: PrintMemo }): Map<string, string> => {
  const view = catalogueView(input, memo?.view);
  return pagePrints(view, cataloguePlan(view), "tool-1", memo?.prints);
};

describe("the catalogue's view kept by dev", () => {
  it("is the view made without it, and so are the pages' prints, after each of 300 rounds of random edits", () => {
    const memo = { view: new ViewMemo(), prints: new Map() as PrintMemo };
    const inTurn = modelsInTurn();
    let rounds = 0;
    // Rounds whose view kept some of the last view's entries (patched, not made anew): the memo is used.
    let patched = 0;
    let lastView: ReturnType<typeof catalogueView> | null = null;
    eachRound(17, 300, ({ before, edits, after }) => {
      for (const [site, name] of [
        [before, "before"],
        [after, edits.map((e) => e.name).join("; ")],
      ] as const) {
        const input = inputOf(inTurn(site));
        const view = catalogueView(input, memo.view);
        expect(view, name).toEqual(catalogueView(input));
        expect(printsOf(input, memo), name).toEqual(printsOf(input));
        if (lastView !== null && view.mappings.some((m, i) => m === lastView!.mappings[i])) patched++;
        lastView = view;
      }
      rounds++;
    });
    expect(rounds).toBe(300);
    expect(patched).toBeGreaterThan(150);
  });

  it("prints the site data as JSON.stringify does, its icons.json part patched entry by entry, after each of 300 rounds", () => {
    const memo = new CatalogueMemo();
    let rounds = 0;
    eachRound(23, 300, ({ before, edits, after }) => {
      for (const [site, name] of [
        [before, "before"],
        [after, edits.map((e) => e.name).join("; ")],
      ] as const) {
        expect(
          siteDataText(site, (part, print) => memo.partText(site, part, print)),
          name,
        ).toBe(JSON.stringify(toSiteData(site)));
      }
      rounds++;
    });
    expect(rounds).toBe(300);
  });

  it("makes the view again when an icon's bytes change with its name, size and time (its pixel size may differ)", () => {
    const memo = new ViewMemo();
    const site = makeSite();
    catalogueView(inputOf(site), memo);
    const redrawn = inputOf(site, "x");
    expect(catalogueView(redrawn, memo)).toEqual(catalogueView(redrawn));
    expect(catalogueView(redrawn, memo).icons.find((i) => i.name === "php.png")?.width).toBe(16);
  });

  it("moves a mapping's key from the icon it left to the one it reached, in icons.json's order", () => {
    const memo = new ViewMemo();
    const site = makeSite();
    catalogueView(inputOf(site), memo);
    // "file" mapped generic.png; now js.svg, after "js" (icons.json's order).
    const moved = {
      ...site,
      iconMap: iconMapOf(
        new Map([...site.iconMap.entries].map(([k, v]) => [k, k === "file" ? "js.svg" : v])) as JsonObject,
        T - 300,
      ),
    };
    const view = catalogueView(inputOf({ ...moved, changes: modelChanges(site, moved) }), memo);
    expect(view.icons.find((i) => i.name === "js.svg")?.keys).toEqual(["file", "js"]);
    expect(view.icons.find((i) => i.name === "generic.png")?.keys).toEqual([]);
    expect(view.mappings.find((m) => m.key === "file")).toMatchObject({ icon: "js.svg", exists: true });
  });
});
