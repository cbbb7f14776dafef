// src/verify/expectations.ts
// I/O: what the build says each request answers: the route table's answer files, the request-time handler's exact
// answers, the published files' bytes, with the headers the build gives them.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { Build, BuildAnswer, EdgeHandler, SiteFileRecord } from "../layout/read-build.js";
import { API_HEADERS, sha256, type Expected } from "./compare-answers.js";
import { parseJsonLiterals } from "./json-literals.js";
import type { VerifyRequest } from "./requests.js";

const lowerHeaders = (headers: Record<string, string>): Record<string, string | undefined> => {
  const out: Record<string, string | undefined> = {};
  const given = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  for (const name of API_HEADERS) out[name] = given.get(name);
  return out;
};

/** What the build says a request answers. */
export class Expectations {
  private readonly types = new Map<string, string>();
  private readonly files = new Map<string, { sha256: string; size: number }>();
  constructor(
    private readonly build: Build,
    private readonly handler: EdgeHandler | null,
    serve: Record<string, unknown>,
    private readonly records: ReadonlyMap<string, SiteFileRecord>,
    readonly reference: boolean,
  ) {
    // The Content-Type the build gives each file extension (serve.json's static rules: "**/*.png").
    for (const rule of (serve.headers ?? []) as Array<{
      source: string;
      headers: Array<{ key: string; value: string }>;
    }>) {
      const m = /^\*\*\/\*\.([^/]+)$/.exec(rule.source);
      const type = rule.headers.find((h) => h.key.toLowerCase() === "content-type")?.value;
      if (m !== null && type !== undefined) this.types.set(m[1]!.toLowerCase(), type);
    }
  }

  async fromTable(answer: BuildAnswer, method: string): Promise<Expected & { size: number }> {
    const text = await readFile(answer.file, "utf8");
    return {
      status: answer.status,
      headers: lowerHeaders(answer.headers),
      body: method === "HEAD" ? { kind: "empty" } : { kind: "json", value: parseJsonLiterals(text) },
      size: Buffer.byteLength(text),
    };
  }

  async exact(request: VerifyRequest): Promise<Expected & { size: number }> {
    const url = `http://verify.invalid${request.path}${request.query === "" ? "" : `?${request.query}`}`;
    // The handler reads its data files from the build (src/layout/read-build.ts), as a host serves them.
    const response = await this.handler!.fetch(new Request(url, { method: request.method }));
    const text = await response.text();
    let body: Expected["body"];
    if (request.method !== "GET") body = { kind: "empty" };
    else {
      try {
        body = { kind: "json", value: parseJsonLiterals(text) };
      } catch {
        body = { kind: "bytes", sha256: sha256(text), size: Buffer.byteLength(text) };
      }
    }
    return {
      status: response.status,
      headers: lowerHeaders(Object.fromEntries(response.headers)),
      body,
      size: Buffer.byteLength(text),
    };
  }

  private async file(sitePath: string): Promise<{ sha256: string; size: number }> {
    let known = this.files.get(sitePath);
    if (known === undefined) {
      const file = sitePath
        .split("/")
        .filter((p) => p !== "")
        .map(decodeURIComponent)
        .join("/");
      const bytes = await this.build.published(file); // through the one reader of the build
      if (bytes === null) throw new Error(`Internal: ${sitePath} is not a file of the build.`);
      known = { sha256: sha256(bytes), size: bytes.length };
      this.files.set(sitePath, known);
    }
    return known;
  }

  /**
   * A precomputed answer without parsing it: its rule's status and headers, and its file's bytes as the build recorded
   * them (sha1 and size, when the records were read) or as they are. A body with those bytes is the answer; any other
   * body is compared as JSON (`full`).
   */
  async recorded(
    request: VerifyRequest,
  ): Promise<(Expected & { size: number; same: (body: Buffer) => boolean; full: () => Promise<Expected> }) | null> {
    if (!this.build.answers || request.method !== "GET") return null;
    const answer = await this.build.answer(request.query);
    const expected = { status: answer.status, headers: lowerHeaders(answer.headers) };
    const record = this.records.get(answer.target.slice(1));
    if (record !== undefined) {
      return {
        ...expected,
        body: { kind: "any" },
        size: record.size,
        same: (body) =>
          body.length === record.size && createHash("sha1").update(body).digest("base64url") === record.sha1,
        full: () => this.fromTable(answer, request.method),
      };
    }
    // A sample's answer: its file, read synchronously (one small file; an asynchronous read is four thread-pool trips).
    let bytes: Buffer;
    try {
      bytes = readFileSync(answer.file);
    } catch {
      return null;
    }
    return {
      ...expected,
      body: { kind: "any" },
      size: bytes.length,
      same: (body) => body.equals(bytes),
      full: async () => ({ ...expected, body: { kind: "json", value: parseJsonLiterals(bytes.toString("utf8")) } }),
    };
  }

  async of(request: VerifyRequest): Promise<Expected & { size: number }> {
    switch (request.kind) {
      case "api":
        // An edge-only build has no answer files: its handler says every answer, the precomputed ones too.
        return request.scope === "beyond" || !this.build.answers
          ? this.exact(request)
          : this.fromTable(await this.build.answer(request.query), request.method);
      case "missing":
        return { status: 404, headers: {}, body: { kind: "any" }, size: 0 };
      case "file":
      case "page": {
        const sitePath = request.kind === "page" ? "/index.html" : request.path;
        const file = await this.file(sitePath);
        const ext = /\.([^./]+)$/.exec(sitePath)?.[1]?.toLowerCase();
        const type = ext === undefined ? undefined : this.types.get(ext);
        // Against the PHP service, plain files are compared by bytes and status: the web server in front chooses headers.
        return {
          status: 200,
          headers: this.reference || type === undefined ? {} : { "content-type": type },
          body: { kind: "bytes", ...file },
          size: file.size,
        };
      }
    }
  }
}
