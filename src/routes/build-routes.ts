// src/routes/build-routes.ts
// SiteModel → the route table and the answer behind every target file: the precomputed domain of behaviour.md,
// plus one explicit fallback rule for each kind of value a static host cannot know.

import * as A from "../php/answers.js";
import type { Answer } from "../php/answers.js";
import {
  asciiLower,
  asciiUpper,
  caseShape,
  compareBytes,
  isEmptyParam,
  isIconName,
  sortBytes,
  sortedIconNames,
  type SiteModel,
} from "../model/types.js";
import { AnswerFiles } from "./answer-files.js";
import { extensionKey, iconKey, versionKey } from "./answer-inputs.js";
import {
  API_ENTRY,
  ROUTE_TABLE_VERSION,
  SAFE_VALUE,
  SAFE_VALUE_SOURCE,
  type Predicate,
  type Rule,
  type RouteTable,
} from "./route-table.js";

export interface BuiltRoutes {
  table: RouteTable;
  /** Site path (starting with "/") → the answer stored there, made when asked for. */
  files: AnswerFiles;
}

/** File stem for a value outside the safe charset: "~" and the hex of its UTF-8 bytes ("c++" → "~632b2b"). */
export function escapedStem(value: string): string {
  let hex = "";
  for (const byte of new TextEncoder().encode(value)) hex += byte.toString(16).padStart(2, "0");
  return `~${hex}`;
}

/** Which folder a case variant's answer lives in, so that no two files differ only in case. */
const CASE_CLASSES = ["", "-upper", "-capitalized", "-mixed"] as const;
const CASE_FOLDER = { lower: "", upper: "-upper", capitalized: "-capitalized", mixed: "-mixed" } as const;
const caseClass = (value: string): (typeof CASE_CLASSES)[number] => CASE_FOLDER[caseShape(value)];

const capitalize = (s: string): string => s.replace(/[a-z]/, (c) => c.toUpperCase());

/**
 * The members distinct and sorted by their UTF-8 bytes: as given when they are so already (checked in one pass), else
 * a sorted copy. The lists buildRoutes passes are sorted once and filtered or split after (filters keep the order):
 * a ×100 site's sets have 54,000 members each, and sorting each list again took a third of a second.
 */
function sortedUnique(members: Iterable<string>): string[] {
  const list = Array.isArray(members) ? (members as string[]) : [...members];
  let sorted = true;
  for (let i = 1; i < list.length && sorted; i++) sorted = compareBytes(list[i - 1]!, list[i]!) < 0;
  return sorted ? list : sortBytes([...new Set(list)]);
}

/**
 * What buildRoutes keeps between the builds of `dev`: the lists of members it sorted, split and checked. Each depends
 * on the model's keys alone (the extensions of both maps, the icons.json keys, the files of icons/, the versions),
 * never on what they map to, so an edit of a mapping, an icon's bytes or the config keeps them all (at ×100, 0.8 s of
 * CPU a rebuild). The answers are never kept: each build binds its sets to its own model.
 */
export class RoutesMemo {
  private keys: ReadonlyArray<readonly string[]> = [];
  private readonly lists = new Map<string, unknown>();

  /** A build of `site` begins: the lists are kept when its keys are the last build's, in the same order. */
  begin(site: SiteModel): void {
    const keys = [
      [...site.extensionMap.indexing.keys()],
      [...site.extensionMap.viewing.keys()],
      [...site.iconMap.entries.keys()],
      [...site.iconDirFiles.keys()],
      site.versions,
    ];
    if (!sameLists(keys, this.keys)) this.lists.clear();
    this.keys = keys;
  }

  /** The list `name` made of the keys: the last build's when the keys are the same, else `make()`'s. */
  list<T>(name: string, make: () => T): T {
    if (this.lists.has(name)) return this.lists.get(name) as T;
    const made = make();
    this.lists.set(name, made);
    return made;
  }
}

function sameLists(a: ReadonlyArray<readonly string[]>, b: ReadonlyArray<readonly string[]>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.length !== y.length) return false;
    for (let j = 0; j < x.length; j++) if (x[j] !== y[j]) return false;
  }
  return true;
}

/** No memo (a build outside `dev`): every list is made. */
const NO_MEMO = { list: <T>(_name: string, make: () => T): T => make() };

class RouteBuilder {
  readonly rules: Rule[] = [];
  readonly files = new AnswerFiles();

  constructor(private readonly memo: Pick<RoutesMemo, "list">) {}

  /** A list made of the model's keys alone (RoutesMemo). */
  list<T>(name: string, make: () => T): T {
    return this.memo.list(name, make);
  }

  private push(
    id: string,
    match: Record<string, Predicate>,
    target: string,
    answer: Pick<Answer, "kind" | "status">,
  ): void {
    this.rules.push({ id, match, target, status: answer.status, headers: A.answerHeaders(answer) });
  }

  /** A rule with one fixed answer. */
  one(id: string, match: Record<string, Predicate>, target: string, answer: Answer): void {
    this.files.addOne(target, answer);
    this.push(id, match, target, answer);
  }

  /**
   * A rule for a set of values of `param`: each member gets its own file at `dir/<member>.json`, its answer made
   * only when the file is written. Members outside the safe charset get a rule of their own, with an escaped file
   * name, right before the set. `inputs` names the key of a member's inputs besides the global ones
   * (src/routes/answer-inputs.ts); none for answers that read only those.
   */
  set(
    id: string,
    match: Record<string, Predicate>,
    param: string,
    members: Iterable<string>,
    dir: string,
    answerFor: (member: string) => Answer,
    ignoreCase = false,
    inputs?: (member: string) => string,
  ): void {
    const { safe, escaped } = this.list(`set ${id}`, () => {
      const split = { safe: [] as string[], escaped: [] as string[] };
      for (const member of sortedUnique(members)) (SAFE_VALUE.test(member) ? split.safe : split.escaped).push(member);
      return split;
    });
    for (const member of escaped) {
      const target = `${dir}/${escapedStem(member)}.json`;
      this.one(
        `${id}.escaped`,
        { ...match, [param]: ignoreCase ? { eq: member, ignoreCase: true } : { eq: member } },
        target,
        answerFor(member),
      );
    }
    if (safe.length === 0) return;
    // One member's answer gives the rule its status and headers; every other member's is checked against it when
    // its file is written.
    const sample = answerFor(safe[0]!);
    this.files.addNew(
      dir,
      this.list(`members ${id}`, () => this.files.newMembers(dir, safe)),
      answerFor,
      sample,
      inputs,
    );
    this.push(
      id,
      { ...match, [param]: ignoreCase ? { in: safe, ignoreCase: true } : { in: safe } },
      `${dir}/{${param}}.json`,
      sample,
    );
  }

  /**
   * `set` for values whose case matters (the answer echoes them): one set per case class, each in a folder of its
   * own (`dir`, `dir-upper`, `dir-capitalized`, `dir-mixed`), so that `TXT` and `txt` never share a file name.
   */
  setByCase(
    id: string,
    match: Record<string, Predicate>,
    param: string,
    members: Iterable<string>,
    dir: string,
    answerFor: (member: string) => Answer,
    inputs?: (member: string) => string,
  ): void {
    const byClass = this.list(`case ${id}`, () => {
      const classes = new Map<string, string[]>();
      for (const m of new Set(members)) {
        const cls = caseClass(m);
        const list = classes.get(cls);
        if (list === undefined) classes.set(cls, [m]);
        else list.push(m); // not a spread copy per member: that was quadratic (40 s of a ×100 build)
      }
      return classes;
    });
    for (const cls of CASE_CLASSES)
      this.set(`${id}${cls}`, match, param, byClass.get(cls) ?? [], `${dir}${cls}`, answerFor, false, inputs);
  }
}

const eq = (value: string): Predicate => ({ eq: value });
const present: Predicate = { present: true };
/** PHP's empty() also holds for "0"; "" and "0" are matched literally, absence by rule order. */
const EMPTY_VALUES = ["", "0"] as const;

/** The route table and answer files of `site`; `memo` (dev's) keeps the lists made of its keys from the last build. */
export function buildRoutes(site: SiteModel, memo?: RoutesMemo): BuiltRoutes {
  memo?.begin(site);
  const r = new RouteBuilder(memo ?? NO_MEMO);
  const action = (name: A.ActionName): Record<string, Predicate> => ({ action: eq(name) });

  // Every list of members is sorted once here (the sets keep the order of what they are given, filtered or split).
  const knownExtensions = r.list("known extensions", () =>
    sortBytes([
      ...new Set([
        ...site.extensionMap.indexing.keys(),
        ...site.extensionMap.viewing.keys(),
        ...site.iconMap.entries.keys(),
      ]),
    ]),
  );

  // config
  r.one("config", action("config"), "/api/config.json", A.config(site));

  // versionCheck: every manifest version; empty → 400; any other version → fallback (echo cannot be computed).
  const vc = action("versionCheck");
  for (const empty of EMPTY_VALUES) {
    r.one(
      `versionCheck.empty${empty === "" ? "" : "-zero"}`,
      { ...vc, current_version: eq(empty) },
      "/api/errors/current-version-required.json",
      A.versionCheck(site, empty),
    );
  }
  r.set(
    "versionCheck.known",
    vc,
    "current_version",
    r.list("versions", () => site.versions.filter((v) => !isEmptyParam(v))),
    "/api/versionCheck",
    (v) => A.versionCheck(site, v),
    false,
    versionKey,
  );
  r.one(
    "versionCheck.unknown",
    { ...vc, current_version: present },
    "/api/versionCheck.json",
    A.versionCheck(site, UNKNOWN_VERSION, ""),
  );
  r.one("versionCheck.missing", vc, "/api/errors/current-version-required.json", A.versionCheck(site, undefined));

  // extensionMappings: every type value is answered exactly.
  const em = action("extensionMappings");
  r.one(
    "extensionMappings.indexing",
    { ...em, type: eq("indexing") },
    "/api/extensionMappings/indexing.json",
    A.extensionMappings(site, "indexing"),
  );
  r.one(
    "extensionMappings.viewing",
    { ...em, type: eq("viewing") },
    "/api/extensionMappings/viewing.json",
    A.extensionMappings(site, "viewing"),
  );
  r.one("extensionMappings.all", em, "/api/extensionMappings/all.json", A.extensionMappings(site, undefined));

  // getExtensionSetting: the extension is lower-cased before lookup and echoed lower-cased, so sets ignore case.
  const ges = action("getExtensionSetting");
  for (const empty of EMPTY_VALUES) {
    r.one(
      `getExtensionSetting.empty${empty === "" ? "" : "-zero"}`,
      { ...ges, extension: eq(empty) },
      "/api/errors/extension-required.json",
      A.getExtensionSetting(site, empty, undefined),
    );
  }
  const settingKeys = r.list("setting keys", () =>
    sortBytes([...new Set(knownExtensions.map(asciiLower).filter((e) => !isEmptyParam(e)))]),
  );
  const gesDir = "/api/getExtensionSetting";
  for (const type of ["indexing", "viewing"] as const) {
    r.set(
      `getExtensionSetting.${type}`,
      { ...ges, type: eq(type) },
      "extension",
      settingKeys,
      `${gesDir}/${type}`,
      (e) => A.getExtensionSetting(site, e, type),
      true,
      extensionKey,
    );
  }
  // The empty types are echoed as given; the file for type "" also answers any other type (then echoed as "").
  r.set(
    "getExtensionSetting.type-0",
    { ...ges, type: eq("0") },
    "extension",
    settingKeys,
    `${gesDir}/type-0`,
    (e) => A.getExtensionSetting(site, e, "0"),
    true,
    extensionKey,
  );
  r.set(
    "getExtensionSetting.other-type",
    { ...ges, type: present },
    "extension",
    settingKeys,
    `${gesDir}/type-empty`,
    (e) => A.getExtensionSetting(site, e, ""),
    true,
    extensionKey,
  );
  r.set(
    "getExtensionSetting.default-type",
    ges,
    "extension",
    settingKeys,
    `${gesDir}/indexing`,
    (e) => A.getExtensionSetting(site, e, undefined),
    true,
    extensionKey,
  );
  for (const type of ["indexing", "viewing"] as const) {
    r.one(
      `getExtensionSetting.${type}.unknown`,
      { ...ges, type: eq(type), extension: present },
      `${gesDir}/${type}.json`,
      A.getExtensionSetting(site, UNKNOWN_EXTENSION, type, ""),
    );
  }
  r.one(
    "getExtensionSetting.other-type.unknown",
    { ...ges, type: present, extension: present },
    `${gesDir}/type-empty.json`,
    A.getExtensionSetting(site, UNKNOWN_EXTENSION, "", ""),
  );
  r.one(
    "getExtensionSetting.default-type.unknown",
    { ...ges, extension: present },
    `${gesDir}/indexing.json`,
    A.getExtensionSetting(site, UNKNOWN_EXTENSION, undefined, ""),
  );
  r.one(
    "getExtensionSetting.missing",
    ges,
    "/api/errors/extension-required.json",
    A.getExtensionSetting(site, undefined, undefined),
  );

  // icons, iconMappings, status, configReference: no parameters.
  r.one("icons", action("icons"), "/api/icons.json", A.icons(site));
  r.one("iconMappings", action("iconMappings"), "/api/iconMappings.json", A.iconMappings(site));
  r.one("status", action("status"), "/api/status.json", A.status(site));
  const reference = A.configReference(site);
  r.one(
    "configReference",
    action("configReference"),
    reference.status === 200 ? "/api/configReference.json" : "/api/errors/config-reference-not-found.json",
    reference,
  );

  // icon: every file in icons/ (icons, and other files, which answer 400); unknown names → 404.
  const ic = action("icon");
  for (const empty of EMPTY_VALUES) {
    r.one(
      `icon.empty${empty === "" ? "" : "-zero"}`,
      { ...ic, name: eq(empty) },
      "/api/errors/icon-name-required.json",
      A.icon(site, empty),
    );
  }
  r.set(
    "icon.known",
    ic,
    "name",
    r.list("icon names", () => sortedIconNames(site)),
    "/api/icon",
    (name) => A.icon(site, name),
    false,
    iconKey,
  );
  r.set(
    "icon.wrong-type",
    ic,
    "name",
    r.list("other icon files", () => [...site.iconDirFiles.keys()].filter((n) => !isIconName(n) && !isEmptyParam(n))),
    "/api/icon/invalid",
    (name) => A.icon(site, name),
    false,
    iconKey,
  );
  r.one("icon.unknown", { ...ic, name: present }, "/api/errors/icon-not-found.json", A.icon(site, UNKNOWN_ICON));
  r.one("icon.missing", ic, "/api/errors/icon-name-required.json", A.icon(site, undefined));

  // findIcon: folder (the answer echoes the extension), then files by extension with common case variants.
  const fi = action("findIcon");
  const fiDir = "/api/findIcon";
  r.setByCase(
    "findIcon.folder",
    { ...fi, type: eq("folder") },
    "extension",
    r.list("folder extensions", () => [...knownExtensions.filter((e) => e !== ""), "0"]),
    `${fiDir}/folder`,
    (e) => A.findIcon(site, "folder", e),
  );
  r.one(
    "findIcon.folder.other",
    { ...fi, type: eq("folder") },
    `${fiDir}/folder.json`,
    A.findIcon(site, "folder", undefined),
  );
  for (const empty of EMPTY_VALUES) {
    r.one(
      `findIcon.empty${empty === "" ? "" : "-zero"}`,
      { ...fi, extension: eq(empty) },
      "/api/errors/extension-required-for-files.json",
      A.findIcon(site, undefined, empty),
    );
  }
  // The empty types are not "folder", so they look files up, and the answer echoes them.
  for (const [type, dir] of [
    ["", "type-empty"],
    ["0", "type-0"],
  ] as const) {
    r.setByCase(
      `findIcon.${dir}`,
      { ...fi, type: eq(type) },
      "extension",
      r.list("nonempty extensions", () => knownExtensions.filter((e) => !isEmptyParam(e))),
      `${fiDir}/${dir}`,
      (e) => A.findIcon(site, type, e),
      extensionKey,
    );
  }
  const variants = r.list("extension variants", () => {
    const variantSet = new Set<string>();
    for (const e of knownExtensions) {
      const lower = asciiLower(e);
      for (const v of [e, lower, asciiUpper(lower), capitalize(lower)]) if (!isEmptyParam(v)) variantSet.add(v);
    }
    return sortBytes([...variantSet]);
  });
  r.setByCase(
    "findIcon.file",
    fi,
    "extension",
    variants,
    `${fiDir}/file`,
    (e) => A.findIcon(site, undefined, e),
    extensionKey,
  );
  // Other case mixes: the icon of the lower-cased extension (the echo shows it lower-cased).
  r.set(
    "findIcon.file.any-case",
    fi,
    "extension",
    r.list("lower variants", () => variants.filter((v) => v === asciiLower(v))),
    `${fiDir}/file`,
    (e) => A.findIcon(site, undefined, e),
    true,
    extensionKey,
  );
  r.one(
    "findIcon.file.unknown",
    { ...fi, extension: present },
    `${fiDir}/file.json`,
    A.findIcon(site, undefined, UNKNOWN_EXTENSION, ""),
  );
  r.one(
    "findIcon.missing",
    fi,
    "/api/errors/extension-required-for-files.json",
    A.findIcon(site, undefined, undefined),
  );

  // Everything else, no action included: the info document.
  r.one("info", {}, "/api/info.json", A.info(site));

  return {
    table: {
      version: ROUTE_TABLE_VERSION,
      entry: API_ENTRY,
      duplicateKeys: "last",
      valueCharset: SAFE_VALUE_SOURCE,
      rules: r.rules,
    },
    files: r.files.seal(),
  };
}

/** Stand-ins for values the build cannot know: chosen so that no content can contain them. */
const UNKNOWN_VERSION = "\u0000unknown";
const UNKNOWN_EXTENSION = "\u0000unknown";
const UNKNOWN_ICON = "\u0000unknown.png";
