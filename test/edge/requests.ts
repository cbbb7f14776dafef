// test/edge/requests.ts
// Requests for the edge parity suites (test/hosts/edge-parity.ts, wrangler): the precomputed domain, and everything outside
// it that the reference answers differently from a static host: unknown extensions, versions newer / older / equal
// after PHP's canonicalization, rc/r/pl, a leading v, case variants, repeated and mangled names, invalid UTF-8,
// arrays, other methods, PATH_INFO. Deterministic: the same site gives the same list.

import type { SiteModel } from "../../src/model/types.js";
import { domainQueries, knownExtensions, toSearch } from "../helpers/domain.js";

export interface EdgeRequest {
  method: string;
  /** Path and raw query as sent: "/api.php?action=config". */
  url: string;
  /** The raw query alone, without "?" ("" for none). */
  query: string;
  /** "domain" for the precomputed domain, else what the request probes. */
  category: string;
}

const enc = (v: string): string => encodeURIComponent(v);
const pick = <T>(list: readonly T[], n: number): T[] => {
  if (list.length <= n) return [...list];
  const step = list.length / n;
  return Array.from({ length: n }, (_, i) => list[Math.floor(i * step)]!);
};
const upper = (s: string): string => s.replace(/[a-z]+/g, (m) => m.toUpperCase());
const capitalized = (s: string): string => s.replace(/[a-z]/, (c) => c.toUpperCase());
const mixed = (s: string): string => [...s].map((c, i) => (i % 2 === 1 ? upper(c) : c)).join("");

/** Versions around `latest` that PHP's version_compare orders in every way (reference-behaviour.md §2). */
export function versionProbes(latest: string): string[] {
  const probes = [
    latest,
    `v${latest}`,
    `V${latest}`,
    `${latest} `,
    ` ${latest}`,
    `${latest}.0`,
    `0${latest}`,
    `${latest}a`,
    `${latest}-rc1`,
    `${latest}-RC1`,
    `${latest}-r1`,
    `${latest}-r10`,
    `${latest}-pl1`,
    `${latest}-p1`,
    `${latest}-beta`,
    `${latest}-alpha`,
    `${latest}-dev`,
    latest.replace(/-/g, "_"),
    latest.replace(/-/g, "+"),
    latest.replace(/-/g, ""),
    latest.replace(/-/g, "."),
    upper(latest),
    latest.replace(/\.[^.]*$/, ""),
    latest.replace(/^(\d+)\.(\d+)/, "$1..$2"),
    latest.replace(/-.*$/, ""),
    "1.0",
    "1.1.2",
    "1.1.9",
    "1.1.10",
    "1.1.16",
    "1.2",
    "1.2.0-r0",
    "1.2.1",
    "2.0",
    "10.0",
    "99",
    "abc",
    "latest",
    "-1",
    "00",
    "0.0",
    " ",
    "1.2.0-foo",
    "999999999999999999999",
    "#",
    "1.2.0.#N#",
  ];
  return [...new Set(probes)];
}

export function edgeRequests(site: SiteModel, options: { perSet?: number } = {}): EdgeRequest[] {
  const n = options.perSet ?? 40;
  const out: EdgeRequest[] = [];
  const seen = new Set<string>();
  const add = (category: string, query: string, method = "GET", path = "/api.php"): void => {
    const key = `${method} ${path}?${query}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ method, url: query === "" ? path : `${path}?${query}`, query, category });
  };

  for (const q of domainQueries(site)) add("domain", toSearch(q));

  const ext = knownExtensions(site).filter((e) => e !== "" && e !== "0");
  const some = pick(ext, n);
  const unknown = [
    "zzz",
    "c++",
    "tar.gz",
    ".php",
    "file.php",
    "ph p",
    "%",
    "x".repeat(300),
    "ä",
    "Äphp",
    "İphp",
    "日本",
  ];

  // Unknown extensions, every action that takes one.
  for (const e of unknown) {
    add("unknown-extension", `action=getExtensionSetting&extension=${enc(e)}`);
    add("unknown-extension", `action=getExtensionSetting&extension=${enc(e)}&type=viewing`);
    add("unknown-extension", `action=findIcon&type=file&extension=${enc(e)}`);
    add("unknown-extension", `action=findIcon&extension=${enc(e)}`);
    add("unknown-extension", `action=findIcon&type=folder&extension=${enc(e)}`);
  }
  // Case variants and odd types.
  for (const e of some) {
    for (const v of [upper(e), capitalized(e), mixed(e)]) {
      add("case", `action=getExtensionSetting&extension=${enc(v)}`);
      add("case", `action=getExtensionSetting&extension=${enc(v)}&type=viewing`);
      add("case", `action=findIcon&type=file&extension=${enc(v)}`);
      add("case", `action=findIcon&extension=${enc(v)}&type=FOLDER`);
    }
    for (const type of ["VIEWING", "Indexing", "all", "bogus", " indexing", "indexing "]) {
      add("type", `action=getExtensionSetting&extension=${enc(e)}&type=${enc(type)}`);
    }
    for (const type of ["Folder", "FILE", "bogus", "folder "])
      add("type", `action=findIcon&type=${enc(type)}&extension=${enc(e)}`);
  }
  for (const type of ["Folder", "FOLDER", "folder%00", "bogus", ""]) add("type", `action=findIcon&type=${type}`);
  for (const type of ["ALL", "Indexing", "VIEWING", "bogus", "0", "indexing%20"])
    add("type", `action=extensionMappings&type=${type}`);

  // Versions.
  for (const v of versionProbes(site.config.version)) add("version", `action=versionCheck&current_version=${enc(v)}`);
  for (const v of site.versions) add("version", `action=versionCheck&current_version=${enc(`v${v}`)}`);

  // Icon names: basename, the regex, case, paths.
  const icons = [...site.iconDirFiles.keys()];
  for (const name of pick(icons, n / 2)) {
    for (const v of [
      upper(name),
      `../icons/${name}`,
      `icons/${name}`,
      `/etc/${name}`,
      `${name}/`,
      `${name}//`,
      `C:\\icons\\${name}`,
      `${name} `,
      `${name}?x=1`,
      `app/${name}`,
    ])
      add("icon-name", `action=icon&name=${enc(v)}`);
  }
  for (const v of [
    "../../etc/passwd",
    "config.json",
    "folder",
    ".",
    "..",
    ".png",
    "nope.svg",
    "/",
    "//",
    "app",
    "%2e%2e",
  ]) {
    add("icon-name", `action=icon&name=${enc(v)}`);
  }

  // PHP's $_GET: mangled and repeated names, decoding, arrays.
  const v0 = site.config.version;
  for (const q of [
    "action=%63onfig",
    "action=Config",
    "ACTION=config",
    "action=config%20",
    "action",
    "action=",
    "action=config&action=status",
    "action=status&action=config",
    "action%5B%5D=config",
    "action[]=config",
    "action[x]=icons",
    "action=config&action[]=status",
    "action[]=status&action=config",
    `action=versionCheck&current.version=${enc(v0)}`,
    `action=versionCheck&current%20version=1.0`,
    "action=versionCheck&current+version=1.0",
    "action=versionCheck&Current_Version=1.0",
    "action=versionCheck&current_version=+",
    "action=versionCheck&current_version=1.0&current_version=",
    "action=versionCheck&current_version=&current_version=1.0",
    "%20action=config",
    "action.=config",
    "act%69on=icons",
    "action=icons&&&",
    "&&action=icons",
    "action=getExtensionSetting&extension.=php",
    "action=findIcon&extension=php&extension=zzz",
    "action=icon&name=a&name=folder.png",
    "action=getExtensionSetting&extension=php&extension=0",
    "foo=bar&action=status&_=1700000000",
    "action=status&action",
    "action=versionCheck&current_version[]=1",
    "action=getExtensionSetting&extension[]=php",
    "action=getExtensionSetting&extension=php&type[]=x",
    "action=icon&name[]=folder.png",
    "action=findIcon&extension[]=php",
    "action=findIcon&type[]=folder&extension=php",
    "action=findIcon&type=folder&extension[a]=x",
    "action=extensionMappings&type[]=indexing",
    "action[=config",
    "a[b=1&action=status",
    "action=config%00",
    "action=%00config",
    "action=versionCheck&current_version=1%000",
  ])
    add("php-get", q);

  // Invalid UTF-8, echoed (empty body) and not echoed.
  for (const bad of ["%FF", "%C0%80", "%ED%A0%80", "%E2%82", "php%FF", "%F4%90%80%80"]) {
    add("invalid-utf8", `action=getExtensionSetting&extension=${bad}`);
    add("invalid-utf8", `action=getExtensionSetting&extension=php&type=${bad}`);
    add("invalid-utf8", `action=findIcon&type=file&extension=${bad}`);
    add("invalid-utf8", `action=findIcon&type=${bad}&extension=php`);
    add("invalid-utf8", `action=findIcon&type=folder&extension=${bad}`);
    add("invalid-utf8", `action=versionCheck&current_version=${bad}`);
    add("invalid-utf8", `action=icon&name=${bad}.png`);
    add("invalid-utf8", `action=${bad}`);
    add("invalid-utf8", `action=extensionMappings&type=${bad}`);
  }

  // Methods and PATH_INFO over a sample of the above.
  const sample = pick(
    out.filter((r) => r.method === "GET"),
    25,
  );
  for (const r of sample) {
    for (const method of ["OPTIONS", "HEAD", "POST", "PUT", "DELETE", "PATCH"]) add("method", r.query, method);
    add("path-info", r.query, "GET", "/api.php/extra");
  }
  add("path-info", "action=config", "GET", "/api.php/");
  return out;
}
