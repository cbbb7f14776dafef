// test/hosts/host-folders.test.ts
// Every host is one folder, src/hosts/<name>/ (docs/hosts.md, "Adding a host"): each folder but shared/ is a preset
// in src/hosts/presets.ts and a renderer in the registry, and the other way round; each preset names its folder and
// lists its plan limits (an array, possibly empty); an edge host has its runtime entry and, after `npm run build`,
// its bundle (lib/edge/bundles/<name>.js); a static host has neither.

import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { entryPath } from "../../src/edge/bundle.js";
import type { HostPreset } from "../../src/hosts/host-preset.js";
import { PLAN_LIMITS } from "../../src/hosts/limits.js";
import { DEFAULT_HOSTS, EDGE_HOST_NAMES, HOST_NAMES } from "../../src/hosts/names.js";
import { PRESETS } from "../../src/hosts/presets.js";
import { HOSTS } from "../../src/hosts/registry.js";

const HOSTS_DIR = fileURLToPath(new URL("../../src/hosts/", import.meta.url));
/** The folder of helpers several hosts share: no host. */
const SHARED = "shared";
const folders = readdirSync(HOSTS_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== SHARED)
  .map((d) => d.name)
  .sort();

describe("host folders", () => {
  test("every folder under src/hosts/ is a preset and a renderer in the registry, and the other way round", () => {
    expect(folders.length).toBeGreaterThan(0);
    expect([...HOST_NAMES].sort()).toEqual(folders);
    expect(Object.keys(HOSTS).sort()).toEqual(folders);
    for (const [name, adapter] of Object.entries(HOSTS)) expect(adapter.name, name).toBe(name);
  });

  for (const name of folders) {
    test(`${name}/ is complete: preset, renderer, limit rows, and its entry and bundle when it is an edge host`, async () => {
      const dir = path.join(HOSTS_DIR, name);
      const { preset } = (await import(pathToFileURL(path.join(dir, "preset.ts")).href)) as { preset: HostPreset };
      expect(preset.name).toBe(name);
      expect(PRESETS).toContain(preset);
      expect(["edge", "static"]).toContain(preset.kind);
      expect(typeof preset.default).toBe("boolean");
      expect(DEFAULT_HOSTS.includes(name as never)).toBe(preset.default);
      expect(Array.isArray(preset.limits)).toBe(true);
      expect(PLAN_LIMITS.filter((l) => l.host === name).map(({ host: _, ...row }) => row)).toEqual(preset.limits);
      expect(existsSync(path.join(dir, "render.ts")), `${name}/render.ts`).toBe(true);
      const edge = preset.kind === "edge";
      expect(EDGE_HOST_NAMES.includes(name as never)).toBe(edge);
      expect(existsSync(path.join(dir, "entry.ts")), `${name}/entry.ts`).toBe(edge);
      expect(existsSync(entryPath(name)), `lib/edge/bundles/${name}.js (npm run build)`).toBe(edge);
    });
  }

  test("lib/edge/bundles holds one bundle per edge host, and nothing else", () => {
    const bundles = readdirSync(path.dirname(entryPath("x"))).sort();
    expect(bundles).toEqual(EDGE_HOST_NAMES.map((n) => `${n}.js`).sort());
  });
});
