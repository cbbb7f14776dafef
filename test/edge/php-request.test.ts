// test/edge/php-request.test.ts
// The PHP request layer (src/php/php-request.ts) against real PHP 8.2 (test/golden/php-request.php.json: parse_str,
// basename, strtolower, json_encode) and against the examples of reference-behaviour.md §1–§12.

import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, test } from "vitest";
import { phpBasename } from "../../src/php/answers.js";
import {
  decodeBytes,
  encodeBytes,
  hasInvalidUtf8,
  isIntegerKey,
  parsePhpQuery,
  phpRespond,
  urlDecodeBytes,
  urlDecodeText,
  type PhpValue,
} from "../../src/php/php-request.js";
import { createApiHandler } from "../../src/edge/index.js";
import { edgeDataFiles } from "../../src/edge/data-files.js";
import { memoryReader } from "./data-reader.js";
import { asciiLower, type SiteModel } from "../../src/model/types.js";
import { compileContent, DEMO_CONTENT, haveRealFixtures, realFixture } from "../helpers/fixtures.js";

const hex = (s: string): string => [...encodeBytes(s)].map((b) => b.toString(16).padStart(2, "0")).join("");
const fromHex = (h: string): string => decodeBytes(Uint8Array.from(h.match(/../g) ?? [], (x) => parseInt(x, 16)));

type Encoded = string | { array: Array<["int" | "str", string, Encoded]> };
const encodeValue = (v: PhpValue): Encoded =>
  typeof v === "string"
    ? hex(v)
    : { array: [...v.entries].map(([k, x]) => [isIntegerKey(k) ? "int" : "str", hex(k), encodeValue(x)]) };

const golden = JSON.parse(readFileSync(new URL("../golden/php-request.php.json", import.meta.url), "utf8")) as {
  parse: Array<{ query: string; result: Encoded }>;
  strings: Array<{ input: string; basename: string; strtolower: string; json_ok: boolean }>;
};

describe("PHP's query parsing, against PHP 8.2's parse_str", () => {
  test(`parses ${golden.parse.length} hostile query strings into the same names, values and arrays`, () => {
    expect(golden.parse.length).toBeGreaterThan(50);
    for (const { query, result } of golden.parse) {
      const raw = fromHex(query);
      const got = encodeValue({ entries: parsePhpQuery(raw), nextIndex: 0 });
      expect(got, `query ${JSON.stringify(raw)}`).toEqual(result);
    }
  });

  test("urlDecodeText, with its fast path for plain ASCII, is decodeBytes of urlDecodeBytes for any raw part", () => {
    const alphabet = [
      "a",
      "Z",
      "0",
      ".",
      "[",
      "]",
      " ",
      "\0",
      "%",
      "+",
      "%2",
      "%41",
      "%e2%82",
      "%C3%A9",
      "%ff",
      "%00",
      "é",
      "€",
      "😀",
      "\ud800",
      "\udcff",
      "\x7f",
      "\x80",
    ];
    let seed = 11;
    const random = (n: number): number => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) % n;
    let plain = 0;
    for (let i = 0; i < 5000; i++) {
      const raw = Array.from({ length: random(8) }, () => alphabet[random(alphabet.length)]!).join("");
      if (/^[a-zA-Z0-9.[\] \0\x7f]*$/.test(raw)) plain++;
      expect(urlDecodeText(raw), JSON.stringify(raw)).toBe(decodeBytes(urlDecodeBytes(raw)));
    }
    expect(plain).toBeGreaterThan(100); // the fast path is taken, too
  });

  test("basename, ASCII-only strtolower and json_encode's UTF-8 check agree with PHP on every sample", () => {
    for (const s of golden.strings) {
      const input = fromHex(s.input);
      expect(hex(phpBasename(input)), `basename ${JSON.stringify(input)}`).toBe(s.basename);
      expect(hex(asciiLower(input)), `strtolower ${JSON.stringify(input)}`).toBe(s.strtolower);
      expect(!hasInvalidUtf8(input), `json_encode ${JSON.stringify(input)}`).toBe(s.json_ok);
    }
  });

  test("ignores variables after max_input_vars (1000)", () => {
    const q = [...Array.from({ length: 1000 }, (_, i) => `v${i}=1`), "action=config"].join("&");
    expect(parsePhpQuery(q).has("action")).toBe(false);
  });
});

let demo: SiteModel;
beforeAll(async () => {
  demo = (await compileContent(DEMO_CONTENT)).model;
});

const ask = (query: string, method = "GET", site: SiteModel = demo) => {
  const r = phpRespond(site, method, query);
  return { ...r, json: r.body === "" ? undefined : (JSON.parse(r.body) as Record<string, unknown>) };
};
const CORS = {
  "Content-Type": "application/json",
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type, Authorization",
};

describe("reference-behaviour.md §1: dispatch", () => {
  test("missing, empty, wrongly-cased, padded or array actions get the info document", () => {
    for (const q of [
      "",
      "action=Config",
      "action=",
      "action",
      "action=config%20",
      "ACTION=config",
      "action%5B%5D=config",
      "action[x]=config",
    ]) {
      expect(ask(q).json?.service, q).toBe("Indexer API");
      expect(ask(q).json?.endpoints, q).toBeDefined();
    }
  });
  test("percent-decoding comes first, the last value wins, + is a space", () => {
    expect(ask("action=%63onfig").json?.config).toBeDefined();
    expect(ask("action=config&action=status").json?.icon_count).toBeDefined();
    const v = ask("action=versionCheck&current_version=+").json!;
    expect([v.current_version, v.update_needed]).toEqual([" ", true]);
  });
  test(". and space in names become _, names are case-sensitive", () => {
    for (const q of ["action=versionCheck&current.version=1.0", "action=versionCheck&current%20version=1.0"]) {
      expect(ask(q).json, q).toMatchObject({ current_version: "1.0", update_needed: true });
    }
    expect(ask("action=versionCheck&Current_Version=1.0").status).toBe(400);
  });
  test("OPTIONS: 200, empty body, CORS headers and Content-Type only; HEAD: headers without body; POST like GET", () => {
    expect(ask("action=config", "OPTIONS")).toMatchObject({ status: 200, headers: CORS, body: "" });
    const head = ask("action=config", "HEAD");
    expect(head).toMatchObject({
      status: 200,
      body: "",
      headers: { ...CORS, "Cache-Control": "public, max-age=3600" },
    });
    expect(ask("action=config", "POST").body).toBe(ask("action=config").body);
    expect(ask("action=config", "DELETE").body).toBe(ask("action=config").body);
  });
});

describe("reference-behaviour.md §2–§4: versionCheck, empty(), strtolower, invalid UTF-8", () => {
  // Each verdict checked with PHP 8.2: version_compare($v, "1.2.0").
  test("canonicalized versions: newer, equal and older than 1.2.0", () => {
    const need = (v: string) => ask(`action=versionCheck&current_version=${encodeURIComponent(v)}`).json?.update_needed;
    for (const v of ["1.2.0", "01.2.0", "1.2.0.0", "1.2.1", "2.0", "99", "1.2.0-pl1", "1.2.0-p1"])
      expect(need(v), v).toBe(false);
    for (const v of [
      "v1.2.0",
      "1.2.0 ",
      "1.2.0a",
      "1.2.0-rc1",
      "1.2.0-r2",
      "1..0",
      "1.2",
      "abc",
      "00",
      "0.0",
      "1.1.15",
    ])
      expect(need(v), v).toBe(true);
  });
  test("config_url only when an update is needed; the answer echoes the raw version", () => {
    const yes = ask("action=versionCheck&current_version=1.0").json!;
    expect(Object.keys(yes)).toEqual([
      "success",
      "current_version",
      "latest_version",
      "update_needed",
      "timestamp",
      "message",
      "config_url",
    ]);
    expect(yes.message).toBe("Update available: 1.0 -> 1.2.0");
    const no = ask("action=versionCheck&current_version=01.2.0").json!;
    expect(no.config_url).toBeUndefined();
    expect(no.message).toBe("You have the latest version: 01.2.0");
  });
  test('"0" counts as missing, "00" and " " do not', () => {
    expect(ask("action=versionCheck&current_version=0").json).toEqual({
      error: "Current version parameter is required",
      status: 400,
    });
    expect(ask("action=getExtensionSetting&extension=0").status).toBe(400);
    expect(ask("action=findIcon&type=file&extension=0").status).toBe(400);
    expect(ask("action=icon&name=0").json).toEqual({ error: "Icon name not specified", status: 400 });
    expect(ask("action=versionCheck&current_version=00").status).toBe(200);
    expect(ask("action=findIcon&type=folder&extension=0").json).toMatchObject({
      extension: "0",
      icon: { filename: "folder.png" },
    });
  });
  test("getExtensionSetting echoes the lowered extension, findIcon the raw one; type is never lowered; ASCII only", () => {
    expect(ask("action=getExtensionSetting&extension=PHP").json).toMatchObject({
      extension: "php",
      type: "indexing",
      found: true,
    });
    expect(ask("action=findIcon&type=file&extension=PHP").json).toMatchObject({
      extension: "PHP",
      icon: { filename: "php.png" },
    });
    expect(ask("action=getExtensionSetting&extension=php&type=VIEWING").json).toMatchObject({
      type: "VIEWING",
      setting: null,
      found: false,
    });
    expect(ask("action=getExtensionSetting&extension=%C3%84PHP").json).toMatchObject({
      extension: "Äphp",
      found: false,
    });
    expect(ask("action=getExtensionSetting&extension=%C4%B0php").json).toMatchObject({
      extension: "İphp",
      found: false,
    });
  });
  test("invalid UTF-8 echoed: 200, empty body, the usual headers (Cache-Control included)", () => {
    for (const [q, cache] of [
      ["action=getExtensionSetting&extension=%FF", 86400],
      ["action=findIcon&type=file&extension=%FF", 86400],
      ["action=versionCheck&current_version=%FF", 900],
      ["action=getExtensionSetting&extension=php&type=%FF", 86400],
      ["action=findIcon&type=%C0%80&extension=php", 86400],
    ] as const) {
      expect(ask(q), q).toEqual({
        status: 200,
        headers: { ...CORS, "Cache-Control": `public, max-age=${cache}` },
        body: "",
        json: undefined,
      });
    }
  });
  test("invalid UTF-8 not echoed is compared as bytes: never a known key", () => {
    expect(ask("action=%FFconfig").json?.endpoints).toBeDefined();
    expect(ask("action=extensionMappings&type=%FF").json).toHaveProperty("indexing_count");
    expect(ask("action=icon&name=%FF.png")).toMatchObject({ status: 404 });
    expect(ask("action=icon&name=%FF")).toMatchObject({ status: 400 });
  });
});

describe("reference-behaviour.md §5–§7, §10: lookups and shapes", () => {
  test("getExtensionSetting: type default only when absent; other types echoed, not found", () => {
    expect(ask("action=getExtensionSetting&extension=php&type=").json).toMatchObject({
      type: "",
      setting: null,
      found: false,
    });
    expect(ask("action=getExtensionSetting&extension=zzz").json).toMatchObject({ extension: "zzz", found: false });
    expect(ask("action=getExtensionSetting&extension=.php").json).toMatchObject({ found: false });
  });
  test("icon: basename first, then the regex (any case), then the exact file", () => {
    for (const name of ["../icons/folder.png", "icons/folder.png", "/etc/folder.png", "folder.png/"]) {
      expect(ask(`action=icon&name=${encodeURIComponent(name)}`).json, name).toMatchObject({
        icon: { filename: "folder.png" },
      });
    }
    for (const name of ["../../etc/passwd", "config.json", "folder", "folder.png ", "folder.png?x=1", ".", ".."]) {
      expect(ask(`action=icon&name=${encodeURIComponent(name)}`).json, name).toEqual({
        error: "Invalid icon file type",
        status: 400,
      });
    }
    for (const name of [
      "FOLDER.PNG",
      "FoLdEr.pNg",
      ".png",
      "nope.svg",
      "folder.gif",
      "app/green.png",
      "C:\\icons\\folder.png",
    ]) {
      expect(ask(`action=icon&name=${encodeURIComponent(name)}`).json, name).toEqual({
        error: "Icon not found",
        status: 404,
      });
    }
    expect(ask("action=icon&name=folder.png").headers).toEqual(CORS);
  });
  test("findIcon: only the exact 'folder' is a folder; unmapped → text.png; the type is echoed raw", () => {
    expect(ask("action=findIcon&type=FOLDER&extension=php").json).toMatchObject({
      type: "FOLDER",
      icon: { filename: "php.png" },
    });
    expect(ask("action=findIcon&type=Folder").status).toBe(400);
    expect(ask("action=findIcon&type=bogus&extension=php").json).toMatchObject({
      type: "bogus",
      icon: { filename: "php.png" },
    });
    expect(ask("action=findIcon&type=&extension=php").json).toMatchObject({ type: "" });
    expect(ask("action=findIcon&type=folder&extension=zzz").json).toMatchObject({
      extension: "zzz",
      icon: { filename: "folder.png" },
    });
    expect(ask("action=findIcon&extension=zzz").json).toMatchObject({ type: "file", icon: { filename: "text.png" } });
    expect(ask("action=findIcon&extension=file").json).toMatchObject({
      icon: { filename: "non-descript-default-file.png" },
    });
    expect(ask("action=findIcon&extension=FOLDER").json).toMatchObject({
      icon: { filename: "folder.png", path: "icons/folder.png" },
    });
  });
  test("extensionMappings: both maps for absent/all/unknown types, one map with count for indexing/viewing", () => {
    for (const t of ["", "&type=all", "&type=", "&type=bogus", "&type=Indexing", "&type=0", "&type[]=indexing"]) {
      expect(Object.keys(ask(`action=extensionMappings${t}`).json!), t).toEqual([
        "success",
        "mappings",
        "indexing_count",
        "viewing_count",
      ]);
    }
    expect(ask("action=extensionMappings&type=viewing").json).toHaveProperty("count");
  });
});

describe("arrays where PHP 8 throws a TypeError: 500 with an empty body", () => {
  test("versionCheck, getExtensionSetting, icon and findIcon with an array where a string function gets it", () => {
    for (const q of [
      "action=versionCheck&current_version[]=1",
      "action=getExtensionSetting&extension[]=php",
      "action=icon&name[]=folder.png",
      "action=findIcon&extension[]=php",
    ]) {
      expect(ask(q), q).toEqual({ status: 500, headers: CORS, body: "", json: undefined });
    }
  });
  test("arrays echoed where PHP echoes them: findIcon's type, and the extension of a folder", () => {
    // getExtensionSetting compares its type with === only (api.php): an array is not found, and echoed.
    expect(ask("action=getExtensionSetting&extension=PHP&type[]=indexing")).toMatchObject({
      status: 200,
      json: { success: true, extension: "php", type: ["indexing"], setting: null, found: false },
    });
    expect(ask("action=findIcon&type[]=folder&extension=php").json).toMatchObject({
      type: ["folder"],
      icon: { filename: "php.png" },
    });
    expect(ask("action=findIcon&type=folder&extension[a]=x").json).toMatchObject({
      extension: { a: "x" },
      icon: { filename: "folder.png" },
    });
  });
});

describe("the handler on Web Requests", () => {
  test("/api.php/anything (PATH_INFO) is answered like /api.php, and HEAD has no body", async () => {
    const answer = createApiHandler();
    const read = memoryReader(demo);
    const handler = (request: Request) => answer(request, read);
    const a = await handler(new Request("https://x.test/api.php/anything?action=status"));
    const b = await handler(new Request("https://x.test/api.php?action=status"));
    expect(await a.text()).toBe(await b.text());
    const head = await handler(new Request("https://x.test/api.php?action=config", { method: "HEAD" }));
    expect([head.status, head.headers.get("cache-control"), await head.text()]).toEqual([
      200,
      "public, max-age=3600",
      "",
    ]);
  });
  test("the data files are deterministic", async () => {
    const again = (await compileContent(DEMO_CONTENT)).model;
    expect(edgeDataFiles(again)).toEqual(edgeDataFiles(demo));
  });
});

describe.skipIf(!haveRealFixtures && !process.env.CI)("reference-behaviour.md on the real fixtures", () => {
  test("1.2.0-r2: versions against 1.2.0-r2, folder-proto, pas → text.png, status counts", async () => {
    const site = (await compileContent(realFixture("indexer-1.2.0-r2"))).model;
    const need = (v: string) =>
      ask(`action=versionCheck&current_version=${encodeURIComponent(v)}`, "GET", site).json?.update_needed;
    for (const v of [
      "1.2.0",
      "1.2.0-rc1",
      "1.2.0-beta",
      "1.2.0-R2",
      "1.2.0_r2",
      "1.2.0+r2",
      "1.2.0r2",
      "1.2.0.r2",
      "1.2.0-r10",
    ])
      expect(need(v), v).toBe(false);
    for (const v of ["1.2.0-r0", "1.2", "1.1.16", "v1.2.0-r2"]) expect(need(v), v).toBe(true);
    expect(ask("action=findIcon&type=folder", "GET", site).json).toMatchObject({
      icon: { filename: "folder-proto.png" },
    });
    expect(ask("action=findIcon&type=file&extension=pas", "GET", site).json).toMatchObject({
      icon: { filename: "text.png" },
    });
    expect(ask("action=status", "GET", site).json).toMatchObject({
      icon_count: 486,
      mapping_count: 542,
      extension_mapping_count: 1068,
    });
    expect(ask("action=icon&name=app", "GET", site).status).toBe(400);
    expect(ask("action=icon&name=app/green.png", "GET", site).status).toBe(404);
  });
  test("1.1.15: status counts 386 icons", async () => {
    const site = (await compileContent(realFixture("indexer-1.1.15"))).model;
    expect(ask("action=status", "GET", site).json).toMatchObject({ icon_count: 386 });
    expect(ask("action=versionCheck&current_version=01.1.15", "GET", site).json).toMatchObject({
      update_needed: false,
    });
    expect(ask("action=versionCheck&current_version=1..15", "GET", site).json).toMatchObject({ update_needed: false });
  });
});
