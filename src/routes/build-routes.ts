// src/routes/build-routes.ts
// SiteModel → the route table and the answer behind every target file: the precomputed domain of behaviour.md,
// plus one explicit fallback rule for each kind of value a static host cannot know.

import * as A from "../php/answers.js";
import {
  asciiLower,
  asciiUpper,
  isEmptyParam,
  isIconName,
  sortBytes,
  sortedIconNames,
  type SiteModel,
} from "../model/types.js";
import type { AnswerFiles } from "./answer-files.js";
import { extensionKey, iconKey, versionKey } from "./answer-inputs.js";
import { NO_MEMO, RouteBuilder, type RoutesMemo } from "./route-builder.js";
import { API_ENTRY, ROUTE_TABLE_VERSION, SAFE_VALUE_SOURCE, type Predicate, type RouteTable } from "./route-table.js";

export { escapedStem, RoutesMemo } from "./route-builder.js";

export interface BuiltRoutes {
  table: RouteTable;
  /** Site path (starting with "/") → the answer stored there, made when asked for. */
  files: AnswerFiles;
}

const eq = (value: string): Predicate => ({ eq: value });
const present: Predicate = { present: true };
/** PHP's empty() also holds for "0"; "" and "0" are matched literally, absence by rule order. */
const EMPTY_VALUES = ["", "0"] as const;
const action = (name: A.ActionName): Record<string, Predicate> => ({ action: eq(name) });
const capitalize = (s: string): string => s.replace(/[a-z]/, (c) => c.toUpperCase());

/** The route table and answer files of `site`; `memo` (dev's) keeps the lists made of its keys from the last build. */
export function buildRoutes(site: SiteModel, memo?: RoutesMemo): BuiltRoutes {
  memo?.begin(site);
  const r = new RouteBuilder(memo ?? NO_MEMO);

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
  versionCheckRules(r, site);
  extensionMappingsRules(r, site);
  const settingKeys = extensionSettingRules(r, site, knownExtensions);
  extensionSettingOtherTypeRules(r, site, settingKeys);
  parameterlessRules(r, site);
  iconRules(r, site);
  findIconByTypeRules(r, site, knownExtensions);
  findIconFileRules(r, site, knownExtensions);

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

function versionCheckRules(r: RouteBuilder, site: SiteModel): void {
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
  r.set({
    id: "versionCheck.known",
    match: vc,
    param: "current_version",
    members: r.list("versions", () => site.versions.filter((v) => !isEmptyParam(v))),
    dir: "/api/versionCheck",
    answerFor: (v) => A.versionCheck(site, v),
    inputs: versionKey,
  });
  r.one(
    "versionCheck.unknown",
    { ...vc, current_version: present },
    "/api/versionCheck.json",
    A.versionCheck(site, UNKNOWN_VERSION, ""),
  );
  r.one("versionCheck.missing", vc, "/api/errors/current-version-required.json", A.versionCheck(site, undefined));
}

function extensionMappingsRules(r: RouteBuilder, site: SiteModel): void {
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
}

/** getExtensionSetting for an empty extension and the named types; returns the extensions its sets hold. */
function extensionSettingRules(r: RouteBuilder, site: SiteModel, knownExtensions: string[]): string[] {
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
    r.set({
      id: `getExtensionSetting.${type}`,
      match: { ...ges, type: eq(type) },
      param: "extension",
      members: settingKeys,
      dir: `${gesDir}/${type}`,
      answerFor: (e) => A.getExtensionSetting(site, e, type),
      ignoreCase: true,
      inputs: extensionKey,
    });
  }
  return settingKeys;
}

/** getExtensionSetting for the empty types and any other type, the default type, and unknown extensions. */
function extensionSettingOtherTypeRules(r: RouteBuilder, site: SiteModel, settingKeys: string[]): void {
  const ges = action("getExtensionSetting");
  const gesDir = "/api/getExtensionSetting";
  // The empty types are echoed as given; the file for type "" also answers any other type (then echoed as "").
  r.set({
    id: "getExtensionSetting.type-0",
    match: { ...ges, type: eq("0") },
    param: "extension",
    members: settingKeys,
    dir: `${gesDir}/type-0`,
    answerFor: (e) => A.getExtensionSetting(site, e, "0"),
    ignoreCase: true,
    inputs: extensionKey,
  });
  r.set({
    id: "getExtensionSetting.other-type",
    match: { ...ges, type: present },
    param: "extension",
    members: settingKeys,
    dir: `${gesDir}/type-empty`,
    answerFor: (e) => A.getExtensionSetting(site, e, ""),
    ignoreCase: true,
    inputs: extensionKey,
  });
  r.set({
    id: "getExtensionSetting.default-type",
    match: ges,
    param: "extension",
    members: settingKeys,
    dir: `${gesDir}/indexing`,
    answerFor: (e) => A.getExtensionSetting(site, e, undefined),
    ignoreCase: true,
    inputs: extensionKey,
  });
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
}

function parameterlessRules(r: RouteBuilder, site: SiteModel): void {
  // icons, iconMappings, status, configReference: no parameters.
  r.one("icons", action("icons"), "/api/icons.json", A.icons(site));
  const mappings = A.iconMappings(site);
  const mappingsAt = mappings.status === 200 ? "/api/iconMappings.json" : "/api/errors/icon-mappings-not-found.json";
  r.one("iconMappings", action("iconMappings"), mappingsAt, mappings);
  r.one("status", action("status"), "/api/status.json", A.status(site));
  const reference = A.configReference(site);
  r.one(
    "configReference",
    action("configReference"),
    reference.status === 200 ? "/api/configReference.json" : "/api/errors/config-reference-not-found.json",
    reference,
  );
}

function iconRules(r: RouteBuilder, site: SiteModel): void {
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
  r.set({
    id: "icon.known",
    match: ic,
    param: "name",
    members: r.list("icon names", () => sortedIconNames(site)),
    dir: "/api/icon",
    answerFor: (name) => A.icon(site, name),
    inputs: iconKey,
  });
  r.set({
    id: "icon.wrong-type",
    match: ic,
    param: "name",
    members: r.list("other icon files", () =>
      [...site.iconDirFiles.keys()].filter((n) => !isIconName(n) && !isEmptyParam(n)),
    ),
    dir: "/api/icon/invalid",
    answerFor: (name) => A.icon(site, name),
    inputs: iconKey,
  });
  r.one("icon.unknown", { ...ic, name: present }, "/api/errors/icon-not-found.json", A.icon(site, UNKNOWN_ICON));
  r.one("icon.missing", ic, "/api/errors/icon-name-required.json", A.icon(site, undefined));
}

/** findIcon for folders, for a missing extension, and for the empty types (which look files up). */
function findIconByTypeRules(r: RouteBuilder, site: SiteModel, knownExtensions: string[]): void {
  // findIcon: folder (the answer echoes the extension), then files by extension with common case variants.
  const fi = action("findIcon");
  const fiDir = "/api/findIcon";
  r.setByCase({
    id: "findIcon.folder",
    match: { ...fi, type: eq("folder") },
    param: "extension",
    members: r.list("folder extensions", () => [...knownExtensions.filter((e) => e !== ""), "0"]),
    dir: `${fiDir}/folder`,
    answerFor: (e) => A.findIcon(site, "folder", e),
  });
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
    r.setByCase({
      id: `findIcon.${dir}`,
      match: { ...fi, type: eq(type) },
      param: "extension",
      members: r.list("nonempty extensions", () => knownExtensions.filter((e) => !isEmptyParam(e))),
      dir: `${fiDir}/${dir}`,
      answerFor: (e) => A.findIcon(site, type, e),
      inputs: extensionKey,
    });
  }
}

/** findIcon for files by extension, with common case variants, and unknown or missing extensions. */
function findIconFileRules(r: RouteBuilder, site: SiteModel, knownExtensions: string[]): void {
  const fi = action("findIcon");
  const fiDir = "/api/findIcon";
  const variants = r.list("extension variants", () => {
    const variantSet = new Set<string>();
    for (const e of knownExtensions) {
      const lower = asciiLower(e);
      for (const v of [e, lower, asciiUpper(lower), capitalize(lower)]) if (!isEmptyParam(v)) variantSet.add(v);
    }
    return sortBytes([...variantSet]);
  });
  r.setByCase({
    id: "findIcon.file",
    match: fi,
    param: "extension",
    members: variants,
    dir: `${fiDir}/file`,
    answerFor: (e) => A.findIcon(site, undefined, e),
    inputs: extensionKey,
  });
  // Other case mixes: the icon of the lower-cased extension (the echo shows it lower-cased).
  r.set({
    id: "findIcon.file.any-case",
    match: fi,
    param: "extension",
    members: r.list("lower variants", () => variants.filter((v) => v === asciiLower(v))),
    dir: `${fiDir}/file`,
    answerFor: (e) => A.findIcon(site, undefined, e),
    ignoreCase: true,
    inputs: extensionKey,
  });
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
}

/** Stand-ins for values the build cannot know: chosen so that no content can contain them. */
const UNKNOWN_VERSION = "\u0000unknown";
const UNKNOWN_EXTENSION = "\u0000unknown";
const UNKNOWN_ICON = "\u0000unknown.png";
