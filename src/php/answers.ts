// src/php/answers.ts
// The reference service's semantics as pure functions: (site, query) → status + body, exactly as behaviour.md states.
// This is the oracle: the route table is built from it and tested against it.

import { stringify, type Body } from "../model/json.js";
import { versionCompare } from "../model/version-compare.js";
import {
  asciiLower,
  isEmptyParam,
  isIconName,
  isLowerCaseIconName,
  sortedIconNames,
  type SiteModel,
} from "../model/types.js";
import { formatTimestamp } from "../model/time.js";

export const ACTIONS = [
  "versionCheck",
  "config",
  "icons",
  "icon",
  "findIcon",
  "iconMappings",
  "extensionMappings",
  "getExtensionSetting",
  "configReference",
  "status",
] as const;
export type ActionName = (typeof ACTIONS)[number];
/** `info` is the answer for a missing, empty or unknown action. */
export type AnswerKind = ActionName | "info";

export type Status = 200 | 400 | 404;

export interface Answer {
  kind: AnswerKind;
  status: Status;
  body: Body;
}

/** The decoded query of one request: the last value of each parameter (PHP's $_GET). */
export type Query = ReadonlyMap<string, string>;

/** Seconds of Cache-Control for successful answers; kinds not listed send none. */
const CACHE_SECONDS: Partial<Record<AnswerKind, number>> = {
  config: 3600,
  versionCheck: 900,
  icons: 86400,
  iconMappings: 86400,
  findIcon: 86400,
  extensionMappings: 86400,
  getExtensionSetting: 86400,
  configReference: 86400,
};

/** The CORS headers of every /api.php answer, errors and OPTIONS included (reference-behaviour.md §9). */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type, Authorization",
};

/** The headers every client sees with an answer (besides Content-Length and the like). */
export function answerHeaders(answer: Pick<Answer, "kind" | "status">): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    ...CORS_HEADERS,
  };
  const seconds = CACHE_SECONDS[answer.kind];
  if (answer.status === 200 && seconds !== undefined) headers["Cache-Control"] = `public, max-age=${seconds}`;
  return headers;
}

/**
 * The whole-site answers (config, icons, iconMappings, extensionMappings, configReference, info and status) are made
 * once per model and printed once: the answer files and the handler's data both hold them (a large site's icons
 * answer is a large text). Those made of one part of the model (and of nothing else but what `key` names) are made
 * once per part: a model that shares the part with the last one (`dev`'s next build, src/content/load-content.ts:
 * ModelParts) shares the answer. `printed` says which answers are kept (null until printed); a set member's is not.
 */
const made = new WeakMap<object, Map<string, Answer>>();
const printed = new WeakMap<Answer, string | null>();

function once(owner: object, key: string, make: () => Answer): Answer {
  let answers = made.get(owner);
  if (answers === undefined) made.set(owner, (answers = new Map()));
  let answer = answers.get(key);
  if (answer === undefined) {
    answers.set(key, (answer = make()));
    printed.set(answer, null);
  }
  return answer;
}

export function answerText(answer: Answer): string {
  const kept = printed.get(answer);
  if (typeof kept === "string") return kept;
  const text = stringify(answer.body);
  if (kept === null) printed.set(answer, text);
  return text;
}

const ok = (kind: AnswerKind, body: Body): Answer => ({ kind, status: 200, body });
const fail = (kind: AnswerKind, status: 400 | 404, error: string): Answer => ({
  kind,
  status,
  body: { error, status },
});

export const MESSAGES = {
  versionRequired: "Current version parameter is required",
  extensionRequired: "Extension parameter is required",
  extensionRequiredForFiles: "Extension parameter is required for file types",
  iconNotFound: "Icon not found",
  iconNameMissing: "Icon name not specified",
  iconTypeInvalid: "Invalid icon file type",
  referenceNotFound: "Configuration reference not found",
  iconMappingsNotFound: "Icon mappings not found or invalid",
} as const;

const ENDPOINTS: ReadonlyArray<readonly [ActionName, string, string]> = [
  ["versionCheck", "?action=versionCheck&current_version={version}", "Check if a config update is available"],
  ["config", "?action=config", "Get configuration file"],
  ["icons", "?action=icons", "List all available icons"],
  ["icon", "?action=icon&name={filename}", "Get information about a specific icon"],
  [
    "findIcon",
    "?action=findIcon&type={file|folder}&extension={ext}",
    "Find the appropriate icon for a file type or folder",
  ],
  ["iconMappings", "?action=iconMappings", "Get all icon mappings from icons.json"],
  [
    "extensionMappings",
    "?action=extensionMappings&type={all|indexing|viewing}",
    "Get extension mappings for indexing or viewing",
  ],
  [
    "getExtensionSetting",
    "?action=getExtensionSetting&extension={ext}&type={indexing|viewing}",
    "Get the configuration setting for a specific file extension",
  ],
  ["configReference", "?action=configReference", "Get configuration reference documentation"],
  ["status", "?action=status", "Get API status and health information"],
];

export function info(site: SiteModel): Answer {
  return once(site, "info", () => infoAnswer(site));
}

function infoAnswer(site: SiteModel): Answer {
  const endpoints: Record<string, Body> = {};
  for (const [name, url, description] of ENDPOINTS) endpoints[name] = { url, description, method: "GET" };
  return ok("info", {
    success: true,
    service: site.service,
    version: site.serviceVersion,
    description: site.description,
    endpoints,
    icon_base_url: `${site.baseUrl}/icons/`,
    timestamp: formatTimestamp(site.buildTime),
  });
}

export function config(site: SiteModel): Answer {
  return once(site.config, "config", () =>
    ok("config", {
      success: true,
      config: site.config.json,
      version: site.config.version,
      last_modified: site.config.lastModified,
    }),
  );
}

/**
 * `current` is echoed verbatim. `echo` lets a fallback answer (for a version the build could not know) echo
 * something else than the version it was computed for.
 */
export function versionCheck(site: SiteModel, current: string | undefined, echo: string | undefined = current): Answer {
  if (isEmptyParam(current)) return fail("versionCheck", 400, MESSAGES.versionRequired);
  const latest = site.config.version;
  const updateNeeded = versionCompare(current!, latest) < 0;
  return ok("versionCheck", {
    success: true,
    current_version: echo,
    latest_version: latest,
    update_needed: updateNeeded,
    timestamp: formatTimestamp(site.buildTime),
    message: updateNeeded ? `Update available: ${echo} -> ${latest}` : `You have the latest version: ${echo}`,
    config_url: updateNeeded ? `${site.baseUrl}/api.php?action=config` : undefined,
  });
}

export function extensionMappings(site: SiteModel, type: string | undefined): Answer {
  return once(site.extensionMap, `extensionMappings ${type === "indexing" || type === "viewing" ? type : "all"}`, () =>
    extensionMappingsAnswer(site, type),
  );
}

function extensionMappingsAnswer(site: SiteModel, type: string | undefined): Answer {
  const { indexingJson, viewingJson } = site.extensionMap;
  if (type === "indexing" || type === "viewing") {
    const mappings = type === "indexing" ? indexingJson : viewingJson;
    return ok("extensionMappings", { success: true, mappings, count: mappings.size, [`${type}_count`]: mappings.size });
  }
  return ok("extensionMappings", {
    success: true,
    mappings: { indexing: indexingJson, viewing: viewingJson },
    indexing_count: indexingJson.size,
    viewing_count: viewingJson.size,
  });
}

/** `echo` replaces the echoed extension (fallback answers for extensions the build could not know). */
export function getExtensionSetting(
  site: SiteModel,
  extension: string | undefined,
  type: string | undefined,
  echo?: string,
): Answer {
  if (isEmptyParam(extension)) return fail("getExtensionSetting", 400, MESSAGES.extensionRequired);
  const effectiveType = type ?? "indexing";
  const key = asciiLower(extension!);
  const map =
    effectiveType === "indexing"
      ? site.extensionMap.indexing
      : effectiveType === "viewing"
        ? site.extensionMap.viewing
        : undefined;
  const setting = map?.get(key);
  return ok("getExtensionSetting", {
    success: true,
    extension: echo ?? key,
    type: effectiveType,
    setting: setting ?? null,
    found: setting !== undefined,
  });
}

/** Icon records by site, with and without path: one frozen object per icon, shared by every answer that shows it. */
const iconRecords = new WeakMap<SiteModel, { withPath: Map<string, Body>; without: Map<string, Body> }>();

function iconRecord(site: SiteModel, filename: string, withPath: boolean): Body {
  let records = iconRecords.get(site);
  if (records === undefined) iconRecords.set(site, (records = { withPath: new Map(), without: new Map() }));
  const cache = withPath ? records.withPath : records.without;
  let record = cache.get(filename);
  if (record === undefined) {
    const file = site.iconDirFiles.get(filename)!;
    record = Object.freeze({
      filename,
      url: `${site.baseUrl}/icons/${filename}`,
      path: withPath ? `icons/${filename}` : undefined,
      size: file.size,
      last_modified: file.lastModified,
    });
    cache.set(filename, record);
  }
  return record;
}

export function icons(site: SiteModel): Answer {
  // Made of icons/'s files and the base URL (each icon's url).
  return once(site.iconDirFiles, `icons ${site.baseUrl}`, () => iconsAnswer(site));
}

function iconsAnswer(site: SiteModel): Answer {
  const list = sortedIconNames(site).map((name) => iconRecord(site, name, false));
  return ok("icons", { success: true, icons: list, count: list.length });
}

/** PHP basename() for '/'-separated paths: trailing slashes dropped, then the last segment. */
export function phpBasename(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

export function icon(site: SiteModel, name: string | undefined): Answer {
  if (isEmptyParam(name)) return fail("icon", 400, MESSAGES.iconNameMissing);
  const filename = phpBasename(name!);
  if (!isIconName(filename)) return fail("icon", 400, MESSAGES.iconTypeInvalid);
  if (!site.iconDirFiles.has(filename)) return fail("icon", 404, MESSAGES.iconNotFound);
  return ok("icon", { success: true, icon: iconRecord(site, filename, false) });
}

/** The icon file findIcon answers with for a request, before the text.png fallback; null when extension is required. */
export function findIconChoice(
  site: SiteModel,
  type: string | undefined,
  extension: string | undefined,
): string | null {
  if (type === "folder") return site.iconMap.entries.get("folder") ?? "folder.png";
  if (isEmptyParam(extension)) return null;
  return site.iconMap.entries.get(asciiLower(extension!)) ?? "text.png";
}

/** `type` defaults to "file" when absent; `echo` replaces the echoed extension for fallback answers. */
export function findIcon(
  site: SiteModel,
  type: string | undefined,
  extension: string | undefined,
  echo?: string,
): Answer {
  const choice = findIconChoice(site, type, extension);
  if (choice === null) return fail("findIcon", 400, MESSAGES.extensionRequiredForFiles);
  const filename = site.iconDirFiles.has(choice) ? choice : "text.png";
  if (!site.iconDirFiles.has(filename)) return fail("findIcon", 404, MESSAGES.iconNotFound);
  return ok("findIcon", {
    success: true,
    type: type ?? "file",
    extension: echo ?? extension ?? "",
    icon: iconRecord(site, filename, true),
  });
}

export function iconMappings(site: SiteModel): Answer {
  // PHP tests the decoded icons.json with empty(): `{}` is an empty array, answered as not found.
  return once(site.iconMap, "iconMappings", () =>
    site.iconMap.json.size === 0
      ? fail("iconMappings", 404, MESSAGES.iconMappingsNotFound)
      : ok("iconMappings", { success: true, mappings: site.iconMap.json, count: site.iconMap.json.size }),
  );
}

export function status(site: SiteModel): Answer {
  return once(site, "status", () => statusAnswer(site));
}

function statusAnswer(site: SiteModel): Answer {
  let iconCount = 0;
  for (const name of site.iconDirFiles.keys()) if (isLowerCaseIconName(name)) iconCount++;
  return ok("status", {
    success: true,
    service: site.service,
    version: site.serviceVersion,
    timestamp: formatTimestamp(site.buildTime),
    config_exists: true,
    icons_dir_exists: true,
    icon_mappings_exists: true,
    extension_mappings_exists: true,
    icon_count: iconCount,
    mapping_count: site.iconMap.json.size,
    extension_mapping_count: site.extensionMap.indexing.size + site.extensionMap.viewing.size,
    config_last_modified: site.config.lastModified,
    mappings_last_modified: site.iconMap.lastModified,
    extension_mappings_last_modified: site.extensionMap.lastModified,
  });
}

export function configReference(site: SiteModel): Answer {
  return once(site, "configReference", () => configReferenceAnswer(site));
}

function configReferenceAnswer(site: SiteModel): Answer {
  const ref = site.configReference;
  if (ref === null) return fail("configReference", 404, MESSAGES.referenceNotFound);
  return ok("configReference", {
    success: true,
    content: ref.text,
    last_modified: ref.lastModified,
    version: site.serviceVersion,
    format: "text",
  });
}

/** The reference service's answer to `GET /api.php?<query>`. */
export function answer(site: SiteModel, query: Query): Answer {
  const q = (name: string): string | undefined => query.get(name);
  switch (q("action")) {
    case "config":
      return config(site);
    case "versionCheck":
      return versionCheck(site, q("current_version"));
    case "extensionMappings":
      return extensionMappings(site, q("type"));
    case "getExtensionSetting":
      return getExtensionSetting(site, q("extension"), q("type"));
    case "icons":
      return icons(site);
    case "icon":
      return icon(site, q("name"));
    case "findIcon":
      return findIcon(site, q("type"), q("extension"));
    case "iconMappings":
      return iconMappings(site);
    case "status":
      return status(site);
    case "configReference":
      return configReference(site);
    default:
      return info(site);
  }
}
