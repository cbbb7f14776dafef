// src/model/site-data.ts
// The site model as plain JSON, deterministic (content order kept: objects as arrays of [key, value] pairs): what the
// catalogue page answers every query from, with the same src/php code as the handler. It holds only what the site
// publishes anyway (config.json, extensionMap.json, icons.json, the icons' sizes and times, config-reference.txt,
// the manifest's versions).

import type { Json, JsonObject } from "./json.js";
import { extensionMapOf, iconMapOf, type FileInfo, type SiteModel } from "./types.js";

/** A JSON value with every object as `{ "o": [[key, value], …] }` (arrays and scalars as they are). */
export type EncodedJson = null | boolean | number | string | EncodedJson[] | { o: Array<[string, EncodedJson]> };

/** The model's plain fields as they are; its JSON objects encoded; its lookup maps left out (they are derived). */
export interface SiteData extends Pick<
  SiteModel,
  "baseUrl" | "service" | "serviceVersion" | "description" | "versions" | "buildTime" | "configReference"
> {
  format: 1;
  config: { json: EncodedJson; version: string; lastModified: number };
  /** extensionMap.json's two objects (the lookup maps are derived from them). */
  extensionMap: { indexing: EncodedJson; viewing: EncodedJson; lastModified: number };
  /** icons.json (the lookup map is derived from it). */
  iconMap: { json: EncodedJson; lastModified: number };
  /** Files directly in icons/: [name, size, lastModified], in the model's order. */
  iconDirFiles: Array<[string, number, number]>;
}

export function encodeJson(value: Json): EncodedJson {
  if (value instanceof Map) return { o: [...value].map(([k, v]) => [k, encodeJson(v)]) };
  if (Array.isArray(value)) return value.map(encodeJson);
  return value;
}

/** Loops rather than map() and spread: the catalogue decodes every entry in the page, cold. */
export function decodeJson(value: EncodedJson): Json {
  if (Array.isArray(value)) {
    const out: Json[] = [];
    for (let i = 0; i < value.length; i++) out.push(decodeJson(value[i]!));
    return out;
  }
  if (value !== null && typeof value === "object") {
    const out: JsonObject = new Map();
    for (const [k, v] of value.o) out.set(k, decodeJson(v));
    return out;
  }
  return value;
}

const asObject = (value: EncodedJson): JsonObject => {
  const json = decodeJson(value);
  if (!(json instanceof Map)) throw new Error("Internal: the site data holds a non-object where an object belongs.");
  return json;
};

/** The site data's fields made of one part of the model alone (the part of the same name), which can be large. */
const PARTS = {
  config: ({ config }: SiteModel): SiteData["config"] => ({
    json: encodeJson(config.json),
    version: config.version,
    lastModified: config.lastModified,
  }),
  extensionMap: ({ extensionMap: e }: SiteModel): SiteData["extensionMap"] => ({
    indexing: encodeJson(e.indexingJson),
    viewing: encodeJson(e.viewingJson),
    lastModified: e.lastModified,
  }),
  iconMap: ({ iconMap }: SiteModel): SiteData["iconMap"] => ({
    json: encodeJson(iconMap.json),
    lastModified: iconMap.lastModified,
  }),
  iconDirFiles: ({ iconDirFiles }: SiteModel): SiteData["iconDirFiles"] =>
    [...iconDirFiles].map(([name, f]) => [name, f.size, f.lastModified]),
};
export type SiteDataPart = keyof typeof PARTS;

/** The site data's fields in their order, the parts' as `part` gives them. */
function fields(model: SiteModel, part: (name: SiteDataPart) => unknown): Record<keyof SiteData, unknown> {
  return {
    format: 1,
    baseUrl: model.baseUrl,
    service: model.service,
    serviceVersion: model.serviceVersion,
    description: model.description,
    versions: [...model.versions],
    buildTime: model.buildTime,
    config: part("config"),
    extensionMap: part("extensionMap"),
    iconMap: part("iconMap"),
    iconDirFiles: part("iconDirFiles"),
    configReference: model.configReference === null ? null : { ...model.configReference },
  };
}

export function toSiteData(model: SiteModel): SiteData {
  return fields(model, (name) => PARTS[name](model)) as SiteData;
}

/**
 * JSON.stringify(toSiteData(model)), with each part's text from `text` (given the part's name and the way to print
 * it): a caller that keeps the texts by the model's part objects (model[name]) prints a part once for every model that
 * shares it.
 */
export function siteDataText(model: SiteModel, text: (name: SiteDataPart, print: () => string) => string): string {
  const printed = fields(model, (name) => new PartText(text(name, () => JSON.stringify(PARTS[name](model)))));
  // An object's JSON is its fields' in order, "key":value joined by commas (none of these is undefined).
  return `{${Object.entries(printed)
    .map(([key, value]) => `${JSON.stringify(key)}:${value instanceof PartText ? value.text : JSON.stringify(value)}`)
    .join(",")}}`;
}

class PartText {
  constructor(readonly text: string) {}
}

export function fromSiteData(data: SiteData): SiteModel {
  if (data.format !== 1) throw new Error(`Unsupported site data format ${String(data.format)}.`);
  return {
    baseUrl: data.baseUrl,
    service: data.service,
    serviceVersion: data.serviceVersion,
    description: data.description,
    versions: [...data.versions],
    buildTime: data.buildTime,
    config: { json: asObject(data.config.json), version: data.config.version, lastModified: data.config.lastModified },
    extensionMap: extensionMapOf(
      asObject(data.extensionMap.indexing),
      asObject(data.extensionMap.viewing),
      data.extensionMap.lastModified,
    ),
    iconMap: iconMapOf(asObject(data.iconMap.json), data.iconMap.lastModified),
    iconDirFiles: new Map(
      data.iconDirFiles.map(([name, size, lastModified]): [string, FileInfo] => [name, { size, lastModified }]),
    ),
    configReference: data.configReference === null ? null : { ...data.configReference },
  };
}
