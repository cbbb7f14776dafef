// test/helpers/site-edits.ts
// Random edits of the hand-made site (test/helpers/site.ts), as a maintainer makes them: a mapping set or removed,
// an icon file added, changed or removed, the config's version, the build time, the base URL, a version added. For
// the tests of what a rebuild may keep (test/routes/answer-inputs.test.ts, test/routes/routes-memo.test.ts).

import type { JsonObject } from "../../src/model/json.js";
import { extensionMapOf, iconMapOf, type FileInfo, type SiteModel } from "../../src/model/types.js";
import { prng } from "../../scripts/prng.mjs";
import { makeSite, T } from "./site.js";

/** A copy of a map with `key` set to `value`, or deleted when `value` is undefined. */
function withEntry<V>(map: ReadonlyMap<string, V>, key: string, value: V | undefined): Map<string, V> {
  const copy = new Map(map);
  if (value === undefined) copy.delete(key);
  else copy.set(key, value);
  return copy;
}

type Edit = { name: string; apply(site: SiteModel): SiteModel };

const EXTENSIONS = ["php", "PHP", "js", "md", "pas", "folder", "7", "jpeg", "new", "Mixed"];
const ICONS = [
  "php.png",
  "js.svg",
  "text.png",
  "folder-blue.png",
  "generic.png",
  "ada.png",
  "new.png",
  "Photo.JPG",
  "notes.txt",
];

function randomEdit(next: () => number): Edit {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const ext = pick(EXTENSIONS);
  const value = next() < 0.3 ? undefined : pick(["index_php", "index_js", "view_md", "other"]);
  const icon = pick(ICONS);
  switch (Math.floor(next() * 8)) {
    case 0:
      return {
        name: `indexing.${ext} = ${value}`,
        apply: (s) => {
          const indexing = withEntry(s.extensionMap.indexing, ext, value);
          return {
            ...s,
            extensionMap: extensionMapOf(
              new Map(indexing) as JsonObject,
              s.extensionMap.viewingJson,
              s.extensionMap.lastModified,
            ),
          };
        },
      };
    case 1:
      return {
        name: `viewing.${ext} = ${value}`,
        apply: (s) => {
          const viewing = withEntry(s.extensionMap.viewing, ext, value);
          return {
            ...s,
            extensionMap: extensionMapOf(
              s.extensionMap.indexingJson,
              new Map(viewing) as JsonObject,
              s.extensionMap.lastModified,
            ),
          };
        },
      };
    case 2: {
      const target = next() < 0.3 ? undefined : icon;
      return {
        name: `icons.${ext} = ${target}`,
        apply: (s) => ({
          ...s,
          iconMap: iconMapOf(withEntry(s.iconMap.entries, ext, target) as JsonObject, s.iconMap.lastModified),
        }),
      };
    }
    case 3: {
      // text.png stays (the content checks refuse a site without it: findIcon's sets would mix 200 and 404).
      const info: FileInfo | undefined =
        next() < 0.3 && icon !== "text.png"
          ? undefined
          : { size: 10 + Math.floor(next() * 5), lastModified: T - Math.floor(next() * 3) };
      return {
        name: `icons/${icon} = ${JSON.stringify(info)}`,
        apply: (s) => ({ ...s, iconDirFiles: withEntry(s.iconDirFiles, icon, info) }),
      };
    }
    case 4:
      return {
        name: "config version",
        apply: (s) => ({ ...s, config: { ...s.config, version: `${s.config.version}.1` } }),
      };
    case 5:
      return { name: "build time", apply: (s) => ({ ...s, buildTime: s.buildTime + 1 }) };
    case 6:
      return { name: "base URL", apply: (s) => ({ ...s, baseUrl: `${s.baseUrl}/x` }) };
    default:
      return { name: `versions + ${ext}`, apply: (s) => ({ ...s, versions: [...s.versions, `9.${ext}`] }) };
  }
}

/** A site, one or two random edits of it, and the site after them. */
function randomRound(next: () => number): {
  before: SiteModel;
  edits: Array<ReturnType<typeof randomEdit>>;
  after: SiteModel;
} {
  const before = makeSite();
  const edits = [randomEdit(next), ...(next() < 0.3 ? [randomEdit(next)] : [])];
  return { before, edits, after: edits.reduce((s, e) => e.apply(s), before) };
}

/** `count` random rounds from one seed; `next` goes on drawing from the same sequence inside each. */
export function eachRound(
  seed: number,
  count: number,
  body: (round: ReturnType<typeof randomRound>, next: () => number) => void,
): void {
  const next = prng(seed);
  for (let i = 0; i < count; i++) body(randomRound(next), next);
}
