// test/hosts/odd-requests.ts
// The differential table of issue 27: odd request lines and headers, sent as raw bytes (no client normalisation) to
// two servers that must answer alike: the same status, and for /api.php the same body and API headers (issue 52:
// the raw-query fallbacks). A case may build its headers from the server's own first answer (its ETag and
// Last-Modified), so that validators are each server's own.

import net from "node:net";

export interface RawAnswer {
  status: number;
  headers: Map<string, string>;
  body: Buffer;
}

/** One request line and its headers, exactly as written; `Host` is added unless given. */
export function rawRequest(
  base: string,
  method: string,
  target: string,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      const all = { Host: hostname, ...headers, Connection: "close" };
      socket.write(
        `${method} ${target} HTTP/1.1\r\n${Object.entries(all)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join("")}\r\n`,
      );
    });
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no answer to ${method} ${target}`)));
    socket.on("data", (d: Buffer) => chunks.push(d));
    socket.on("error", reject);
    socket.on("end", () => {
      const data = Buffer.concat(chunks);
      const split = data.indexOf("\r\n\r\n");
      const head = data.subarray(0, split).toString("latin1").split("\r\n");
      const map = new Map(
        head.slice(1).map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
      );
      const body = data.subarray(split + 4);
      resolve({
        status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? "")?.[1] ?? 0),
        headers: map,
        body: map.get("transfer-encoding") === "chunked" ? unchunk(body) : body,
      });
    });
  });
}

function unchunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; ;) {
    const eol = data.indexOf("\r\n", at);
    const size = parseInt(data.subarray(at, eol).toString(), 16);
    if (!(size > 0)) return Buffer.concat(parts);
    parts.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

export interface OddCase {
  method?: string;
  target: string;
  /** Headers, from the same server's plain GET of `target` when a function. */
  headers?: Record<string, string> | ((first: RawAnswer) => Record<string, string>);
}

const FILE = "/config.json";
const OLD = "Mon, 01 Jan 2001 00:00:00 GMT";
const FUTURE = "Fri, 01 Jan 2100 00:00:00 GMT";
const lm = (a: RawAnswer): string => a.headers.get("last-modified") ?? "";
const tag = (a: RawAnswer): string => a.headers.get("etag") ?? "";

const paths = [
  // doubled and dotted slashes
  "//config.json",
  "///icons//php.png",
  "/./config.json",
  "/icons/./php.png",
  "/icons/../config.json",
  "/icons/.././config.json",
  "/icons/..",
  "/..",
  "/../config.json",
  "/icons/../../config.json",
  "//api.php?action=config",
  "/./api.php?action=config",
  "/icons/../api.php?action=config",
  "/api.php/extra?action=config",
  "/api.php/?action=config",
  "/api.php/x/y?action=icons",
  // backslashes and their percent escapes
  "/\\_worker.js",
  "/\\routes.json",
  "/icons\\..\\.build-manifest",
  "/icons\\php.png",
  "/%5c_worker.js",
  "/%5Croutes.json",
  "/icons%5c..%5c.build-manifest",
  "/icons/..%5c..%5cconfig.json",
  // encoded dots and slashes
  "/%2e/config.json",
  "/icons/%2e%2e/config.json",
  "/%2e%2e/config.json",
  "/icons%2fphp.png",
  "/icons/..%2fconfig.json",
  "/icons/%2E%2E%2Fconfig.json",
  "/%2e%2e%2f%2e%2e%2fetc/passwd",
  "/icons/%70hp.png",
  "/%61pi.php?action=config",
  "/icons/%252e%252e/config.json",
  // internal files, any case and escape
  "/_worker.js",
  "/%5Fworker.js",
  "/ROUTES.JSON",
  "/.build-manifest",
  "/%2ebuild-manifest",
  "/nginx.conf",
  "/serve.json",
  // broken escapes, NUL, non-UTF-8
  "/%",
  "/%zz",
  "/icons/%E0%A4%A.png",
  "/icons/%00.png",
  "/icons/php.png%00.txt",
  "/%ED%A0%80.png",
  "/%FF.png",
  // not found, other spellings
  "/API.PHP?action=config",
  "/api.PHP?action=config",
  "/api.php.bak",
  "/nothing",
  "/config.json/",
  "/icons/php.png/",
  // absolute-form
  "http://127.0.0.1/api.php?action=config",
  "http://example.org/config.json",
  "HTTP://127.0.0.1/icons/php.png",
  "http://127.0.0.1",
  "http://127.0.0.1/../config.json",
  // queries: long, repeated, malformed, escaped
  "/api.php",
  "/api.php?",
  "/api.php?&&&",
  "/api.php?action=config&action=icons",
  "/api.php?action=%63onfig",
  "/api.php?action=config&%",
  "/api.php?%zz=%zz&action=getExtensionSetting&extension=%",
  "/api.php?action=icon&name=..%2f..%2fconfig.json",
  `/api.php?action=findIcon&extension=${"a".repeat(4000)}`,
  `/api.php?${"x=1&".repeat(1000)}action=status`,
  "/api.php?action=icon&name=php.png",
  "/api.php?action=icon&name=nope.png",
  "/api.php?action=findIcon&extension=%FF",
  // reserved characters sent raw, as browsers send them (WHATWG URL)
  "/api.php?action=findIcon&extension=a;b",
  "/api.php?action=getExtensionSetting&extension=$x/y?z=|^",
  "/api.php?action=findIcon&extension=[x]{y}`z`\\",
  "/api.php?action=findIcon&extension=php&x=a;b",
  "/config.json?x=1",
  "/icons/php.png?%zz",
  // values as nginx and Apache match them, raw (issue 52): escaped letters and digits, case variants, "+", bare names
  "/api.php?action=findIcon&extension=%70hp",
  "/api.php?action=findIcon&extension=p%68p",
  "/api.php?action=findIcon&extension=PHP",
  "/api.php?action=findIcon&extension=pHp",
  "/api.php?action=findIcon&extension=php+",
  "/api.php?action=findIcon&extension=ph%2Bp",
  "/api.php?action=getExtensionSetting&extension=%70hp",
  "/api.php?action=getExtensionSetting&extension=PHP&type=viewing",
  "/api.php?action=getExtensionSetting&extension=php&type=%76iewing",
  "/api.php?action=icon&name=%70hp.png",
  "/api.php?action=icon&name=php%2Epng",
  "/api.php?action=versionCheck&current_version=1%2E1",
  "/api.php?action=versionCheck&current_version=1.1",
  "/api.php?ac%74ion=config",
  "/api.php?action=config&action",
  "/api.php?action=findIcon&type=folder&type",
  "/api.php?action=findIcon&type=folder&TYPE=file",
  // folders named without their slash, and without an index
  "/icons",
  "/api",
  "/api/findIcon",
  "/catalogue/",
  // what each host uploads: the answer files, the handler's data
  "/api/config.json",
  "/api/findIcon/file/php.json",
  "/_edge-data/core.json",
  // encoded slashes that dot segments resolve, or not
  "/icons/%2e%2e%2fconfig.json",
  "/icons%2F..%2F..%2Fx",
  "/a%2fb/../config.json",
];

const ranges = [
  "bytes=0-3",
  "bytes=0-",
  "bytes=-5",
  "bytes=5-",
  "bytes=0-0,-1",
  "bytes=0-3,2-5",
  "bytes=1-2,0-0",
  "bytes=0-3,5-6,8-9",
  "bytes=99999-",
  "bytes=99999-,999999-",
  "bytes=0-1,99999-",
  "bytes=-0",
  "bytes=-99999",
  "bytes=0-99999",
  "bytes=5-1",
  "items=0-1",
  "BYTES=0-3",
  "bytes= 0-3",
  "bytes=",
  "bytes=0-3 ,5-6",
  "bytes=abc",
  "bytes=--1",
  "bytes=0-3,",
  "bytes=,0-3",
  "bytes=0-3,,5-6",
  "bytes=0-0,0-0",
  "bytes=0-,5-6",
  "bytes=-1,-1",
  "bytes=-0,0-1",
  "bytes=+0-3",
  "bytes=0x1-3",
  "bytes=0-3;",
  "bytes=0- 3",
  "bytes=- 3",
  "Bytes=0-3",
];

/** Every case: paths with GET, then methods, ranges and conditional requests on a plain file and on /api.php. */
export const ODD_CASES: OddCase[] = [
  ...paths.map((target) => ({ target })),
  { method: "HEAD", target: FILE },
  { method: "HEAD", target: "/api.php?action=config" },
  { method: "HEAD", target: "/nothing" },
  { method: "OPTIONS", target: "/api.php?action=config" },
  { method: "OPTIONS", target: "/api.php" },
  { method: "OPTIONS", target: FILE },
  { method: "POST", target: FILE },
  { method: "POST", target: "/api.php?action=config" },
  { method: "POST", target: "/api.php?action=icons" },
  { method: "POST", target: "/api.php?action=icon&name=php.png" },
  { method: "POST", target: "/api.php?action=icon&name=nope.png" },
  { method: "POST", target: "/api.php/x?action=versionCheck" },
  { method: "DELETE", target: FILE },
  { method: "PUT", target: FILE },
  { method: "OPTIONS", target: "*" },
  { method: "OPTIONS", target: "/nothing" },
  { method: "OPTIONS", target: "/icons/" },
  { method: "POST", target: "/nothing" },
  { method: "POST", target: "/" },
  { target: FILE, headers: { Host: "127.0.0.1:8080" } },
  { target: "/api.php?action=config", headers: { Host: "example.org:443" } },
  ...ranges.map((r) => ({ target: FILE, headers: { Range: r } })),
  { method: "HEAD", target: FILE, headers: { Range: "bytes=0-3" } },
  { target: "/api.php?action=config", headers: { Range: "bytes=0-3" } },
  { target: "/api.php?action=icon&name=nope.png", headers: { Range: "bytes=0-3" } },
  // conditional requests with the server's own validators
  { target: FILE, headers: (a) => ({ "If-None-Match": tag(a) }) },
  { target: FILE, headers: (a) => ({ "If-None-Match": `"x", ${tag(a)}` }) },
  { target: FILE, headers: (a) => ({ "If-None-Match": `W/${tag(a)}` }) },
  { target: FILE, headers: { "If-None-Match": "*" } },
  { target: FILE, headers: { "If-None-Match": '"other"' } },
  { target: FILE, headers: (a) => ({ "If-Modified-Since": lm(a) }) },
  { target: FILE, headers: { "If-Modified-Since": OLD } },
  { target: FILE, headers: { "If-Modified-Since": FUTURE } },
  { target: FILE, headers: { "If-Modified-Since": "not a date" } },
  { method: "HEAD", target: FILE, headers: (a) => ({ "If-None-Match": tag(a) }) },
  { target: FILE, headers: { "If-Match": "*" } },
  { target: FILE, headers: { "If-Match": '"other"' } },
  { target: FILE, headers: (a) => ({ "If-Match": tag(a) }) },
  { target: FILE, headers: { "If-Unmodified-Since": OLD } },
  { target: FILE, headers: { "If-Unmodified-Since": FUTURE } },
  { target: FILE, headers: (a) => ({ Range: "bytes=0-3", "If-Range": tag(a) }) },
  { target: FILE, headers: (a) => ({ Range: "bytes=0-3", "If-Range": lm(a) }) },
  { target: FILE, headers: { Range: "bytes=0-3", "If-Range": '"other"' } },
  { target: FILE, headers: { Range: "bytes=0-3", "If-Range": OLD } },
  { target: "/api.php?action=config", headers: (a) => ({ "If-None-Match": tag(a) }) },
  { target: "/api.php?action=config", headers: (a) => ({ "If-Modified-Since": lm(a) }) },
  { target: "/api.php?action=icon&name=nope.png", headers: { "If-None-Match": "*" } },
  { target: "/icons/css.svg", headers: (a) => ({ "If-None-Match": tag(a) }) },
];

/** The answer to a case, asked of the server at `base`. */
export async function answerOf(base: string, c: OddCase): Promise<RawAnswer> {
  const headers = typeof c.headers === "function" ? c.headers(await rawRequest(base, "GET", c.target)) : c.headers;
  return rawRequest(base, c.method ?? "GET", c.target, headers);
}

/** The answer's status to a case, asked of the server at `base`. */
export async function statusOf(base: string, c: OddCase): Promise<number> {
  return (await answerOf(base, c)).status;
}

const API_HEADERS = ["content-type", "cache-control", "access-control-allow-origin"];

/**
 * Where two answers to a case differ, as a client of the API sees them: the status; for a GET of /api.php (any path
 * form) also the body and the API's headers; for any other GET answered 200, the body. Empty when alike.
 */
export function differences(c: OddCase, a: RawAnswer, b: RawAnswer): string[] {
  if (a.status !== b.status) return [`status ${a.status} / ${b.status}`];
  if ((c.method ?? "GET") !== "GET") return [];
  const api = /^(?:[a-z]+:\/\/[^/]*)?\/+(?:\.\/)*api\.php(?:[/?]|$)/.test(c.target) && a.status !== 206;
  const out: string[] = [];
  if ((api || a.status === 200) && !a.body.equals(b.body))
    out.push(`body ${a.body.toString().slice(0, 60)} / ${b.body.toString().slice(0, 60)}`);
  if (api)
    for (const h of API_HEADERS)
      if (a.headers.get(h) !== b.headers.get(h)) out.push(`${h} ${a.headers.get(h)} / ${b.headers.get(h)}`);
  return out;
}

export const describeCase = (c: OddCase): string =>
  `${c.method ?? "GET"} ${c.target.length > 80 ? `${c.target.slice(0, 77)}...` : c.target}${typeof c.headers === "function" ? " (own validators)" : c.headers === undefined ? "" : ` ${JSON.stringify(c.headers)}`}`;
