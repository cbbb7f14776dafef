// src/preview/send-file.ts
// One file as an HTTP answer, with the validators and the conditional and range requests of RFC 9110 (§13, §14)
// the way the previewed host's server answers them for static files: `fresh` decides If-None-Match /
// If-Modified-Since (Apache's reading of a future date: server-quirks.ts), ranges.ts reads Range as RFC 9110, nginx or
// Apache does (ignored: the whole file, 200; no satisfiable range: 416 with an empty body and
// `Content-Range: bytes */size`; several ranges: multipart/byteranges).

import { randomBytes } from "node:crypto";
import type { Stats } from "node:fs";
import type http from "node:http";
import { Readable } from "node:stream";
import fresh from "fresh";
import { rangesOf, type RangeFlavour } from "./ranges.js";
import { readRegularFile } from "./read-file.js";
import { ifModifiedSince } from "./server-quirks.js";

export type Headers = Record<string, string>;

export interface FileAnswer {
  file: string;
  stats: Stats;
  /** 200 for a plain file; a routed error keeps its status, and its body whatever the request asks. */
  status: number;
  headers: Headers;
  etag: string | undefined;
  /** Whose static file serving answers (ranges, If-Modified-Since): "rfc" unless a host is previewed. */
  server?: RangeFlavour;
  /** Headers sent with a 304 too (Apache's `Header always set`). */
  always?: Headers;
}

const header = (req: http.IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(", ") : v;
};

const httpDate = (value: string | undefined): number => (value === undefined ? NaN : Date.parse(value));

/** Entity tags of a list header (`"a", W/"b"`), or "*". */
const tags = (value: string): string[] =>
  value
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);

/** RFC 9110 §13.1.1 and §13.1.4: If-Match (strong comparison), else If-Unmodified-Since. */
function preconditionFails(req: http.IncomingMessage, etag: string | undefined, mtime: number): boolean {
  const ifMatch = header(req, "if-match");
  if (ifMatch !== undefined) return !tags(ifMatch).some((t) => t === "*" || (etag !== undefined && t === etag));
  const since = httpDate(header(req, "if-unmodified-since"));
  return !Number.isNaN(since) && mtime > since;
}

/** If-Range (§13.1.5): the range stands when the validator is our strong ETag or exactly our Last-Modified. */
function ifRangeHolds(req: http.IncomingMessage, etag: string | undefined, lastModified: string): boolean {
  const v = header(req, "if-range");
  if (v === undefined) return true;
  return v.startsWith('"') ? v === etag : v === lastModified;
}

function end(res: http.ServerResponse, status: number, headers: Headers, body?: Buffer | Readable): void {
  res.writeHead(status, headers);
  if (body === undefined || res.req.method === "HEAD") {
    if (body instanceof Readable) body.destroy();
    res.end();
  } else if (body instanceof Readable) {
    res.once("close", () => body.destroy());
    body.pipe(res);
  } else {
    res.end(body);
  }
}

/**
 * A pipelined request's file is opened only once its answer is the connection's current one: a client that never
 * reads holds one file at most, not one per request.
 */
async function whenCurrent(res: http.ServerResponse): Promise<void> {
  if (res.socket !== null || res.closed) return;
  await new Promise<void>((resolve) => {
    res.once("socket", () => resolve());
    res.once("close", () => resolve());
  });
}

/** Answers `req` with the file: 200, 206, 304, 412 or 416 (404 when it cannot be read after all). */
export async function sendFile(req: http.IncomingMessage, res: http.ServerResponse, answer: FileAnswer): Promise<void> {
  await whenCurrent(res);
  try {
    await answerWith(req, res, answer);
  } catch (error) {
    if (res.headersSent) throw error;
    // Gone in a rebuild, descriptors exhausted: a plain 404, as a host answers a file it cannot find.
    end(res, 404, { "Content-Type": "text/plain; charset=utf-8" }, Buffer.from("Not Found\n"));
  }
}

async function answerWith(req: http.IncomingMessage, res: http.ServerResponse, answer: FileAnswer): Promise<void> {
  const { file, stats, status, etag } = answer;
  const server = answer.server ?? "rfc";
  const size = stats.size;
  const mtime = Math.floor(stats.mtimeMs / 1000) * 1000;
  const lastModified = new Date(mtime).toUTCString();
  const headers: Headers = {
    ...answer.headers,
    "Last-Modified": lastModified,
    ...(etag === undefined ? {} : { ETag: etag }),
  };
  if (status === 200) {
    headers["Accept-Ranges"] = "bytes";
    if (preconditionFails(req, etag, mtime))
      return end(res, 412, { "Content-Type": "text/plain; charset=utf-8" }, Buffer.from("Precondition Failed\n"));
    // Only the two validators: a request's Cache-Control is a cache's business, not an origin's (nginx ignores it).
    const conditional = {
      "if-none-match": header(req, "if-none-match"),
      "if-modified-since": ifModifiedSince(server, header(req, "if-modified-since")),
    };
    if (fresh(conditional, { etag, "last-modified": lastModified })) {
      const { "Content-Type": _type, ...kept } = headers;
      return end(res, 304, { ...kept, ...answer.always });
    }
    const rangeHeader = header(req, "range");
    if (
      rangeHeader !== undefined &&
      (req.method === "GET" || req.method === "HEAD") &&
      ifRangeHolds(req, etag, lastModified)
    ) {
      const ranges = rangesOf(rangeHeader, size, server);
      if (ranges === "unsatisfiable")
        return end(res, 416, { "Content-Range": `bytes */${size}`, "Content-Length": "0" });
      if (ranges !== "ignore") {
        if (ranges.length === 1) {
          const { start, end: last } = ranges[0]!;
          headers["Content-Range"] = `bytes ${start}-${last}/${size}`;
          headers["Content-Length"] = String(last - start + 1);
          return end(res, 206, headers, await readRegularFile(file, { start, end: last }));
        }
        return multipart(res, answer, headers, ranges);
      }
    }
  }
  headers["Content-Length"] = String(size);
  end(res, status, headers, await readRegularFile(file));
}

/** Several ranges: one multipart/byteranges body (RFC 9110 §14.6), each part with its Content-Type and Content-Range. */
async function multipart(
  res: http.ServerResponse,
  answer: FileAnswer,
  headers: Headers,
  ranges: ReadonlyArray<{ start: number; end: number }>,
): Promise<void> {
  const boundary = randomBytes(12).toString("hex");
  const type = headers["Content-Type"];
  const parts: Buffer[] = [];
  for (const { start, end: last } of ranges) {
    const head = `\r\n--${boundary}\r\n${type === undefined ? "" : `Content-Type: ${type}\r\n`}Content-Range: bytes ${start}-${last}/${answer.stats.size}\r\n\r\n`;
    const chunks: Buffer[] = [];
    for await (const chunk of await readRegularFile(answer.file, { start, end: last })) chunks.push(chunk as Buffer);
    parts.push(Buffer.from(head), ...chunks);
  }
  parts.push(Buffer.from(`\r\n--${boundary}--\r\n`));
  const body = Buffer.concat(parts);
  const { "Content-Type": _type, ...rest } = headers;
  end(
    res,
    206,
    { ...rest, "Content-Type": `multipart/byteranges; boundary=${boundary}`, "Content-Length": String(body.length) },
    body,
  );
}
