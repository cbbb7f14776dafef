// test/helpers/domain.ts
// The precomputed domain of behaviour.md ("What a static host cannot compute"), enumerated independently of
// src/routes/build-routes.ts, so that tests can check the route table against the reference answers.
// Every parameter also takes the empty values: absent, "" and "0".

import type { SiteModel } from "../../src/model/types.js";

/** One request: parameter → value; a parameter not in the object is absent. */
export type DomainQuery = Record<string, string>;

const EMPTY = [undefined, "", "0"] as const;

function withOptional(base: DomainQuery, param: string, values: ReadonlyArray<string | undefined>): DomainQuery[] {
  return values.map((v) => (v === undefined ? { ...base } : { ...base, [param]: v }));
}

export function knownExtensions(site: SiteModel): string[] {
  return [
    ...new Set([
      ...site.extensionMap.indexing.keys(),
      ...site.extensionMap.viewing.keys(),
      ...site.iconMap.entries.keys(),
    ]),
  ];
}

export function domainQueries(site: SiteModel): DomainQuery[] {
  const ext = knownExtensions(site);
  const icons = [...site.iconDirFiles.keys()].filter((n) => /\.(png|jpe?g|gif|svg|webp)$/i.test(n));
  const out: DomainQuery[] = [];
  out.push({}, { action: "" }, { action: "0" }, { action: "Config" }, { action: "nope" });
  for (const action of ["config", "icons", "iconMappings", "status", "configReference"]) out.push({ action });
  out.push(...withOptional({ action: "versionCheck" }, "current_version", [...EMPTY, ...site.versions]));
  out.push(...withOptional({ action: "extensionMappings" }, "type", [...EMPTY, "all", "indexing", "viewing"]));
  for (const type of [...EMPTY, "indexing", "viewing"]) {
    const base: DomainQuery =
      type === undefined ? { action: "getExtensionSetting" } : { action: "getExtensionSetting", type };
    out.push(...withOptional(base, "extension", [...EMPTY, ...ext]));
  }
  out.push(...withOptional({ action: "icon" }, "name", [...EMPTY, ...icons]));
  for (const type of [...EMPTY, "file", "folder"]) {
    const base: DomainQuery = type === undefined ? { action: "findIcon" } : { action: "findIcon", type };
    out.push(...withOptional(base, "extension", [...EMPTY, ...ext]));
  }
  return out;
}

/** `a=1&b=2`, encoded as a client would. */
export function toSearch(q: DomainQuery): string {
  return new URLSearchParams(Object.entries(q)).toString();
}
