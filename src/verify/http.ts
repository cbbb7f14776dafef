// src/verify/http.ts
// How `verify` asks: node:http(s) with a keep-alive agent of `concurrency` sockets, a deadline per request (headers
// and body), a cap on the body, and redirects never followed. A failure to get an answer at all is a TargetError
// with one plain sentence (exit 2): refused, unknown host, TLS, time-out, a body too large, a redirect off the host.

import http from "node:http";
import https from "node:https";
import type { Received } from "./compare-answers.js";

export type TargetFailure = "refused" | "dns" | "tls" | "timeout" | "too-large" | "redirect" | "reset" | "other";

/** The target cannot be checked: one line, exit 2. */
export class TargetError extends Error {
  constructor(
    readonly failure: TargetFailure,
    message: string,
  ) {
    super(message);
    this.name = "TargetError";
  }
}

export interface Client {
  request(url: URL, method: string, maxBytes: number, signal: AbortSignal): Promise<Received>;
  /** Closes every socket. */
  close(): void;
}

const TLS_CODE = /^(ERR_TLS|ERR_SSL|EPROTO$|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_OSSL)/;

function describe(error: NodeJS.ErrnoException, url: URL): TargetError {
  if (error instanceof TargetError) return error;
  const where = url.host;
  const code = error.code ?? "";
  if (code === "ECONNREFUSED") return new TargetError("refused", `${where} refused the connection.`);
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_NONAME")
    return new TargetError("dns", `${url.hostname} was not found (DNS).`);
  if (TLS_CODE.test(code) || /SSL|TLS|certificate/i.test(error.message)) {
    return new TargetError(
      "tls",
      `TLS with ${where} failed: ${error.message.split("\n")[0]!.replace(/^[0-9A-F]+:error:/, "")}.`,
    );
  }
  if (code === "ECONNRESET" || code === "EPIPE" || code === "ERR_STREAM_PREMATURE_CLOSE")
    return new TargetError("reset", `${where} closed the connection mid-answer.`);
  return new TargetError("other", `${where} could not be asked: ${error.message}.`);
}

export function createClient(options: {
  concurrency: number;
  timeoutMs: number;
  headers: Record<string, string>;
}): Client {
  const agentOptions = { keepAlive: true, maxSockets: options.concurrency, maxFreeSockets: options.concurrency };
  const agents = { "http:": new http.Agent(agentOptions), "https:": new https.Agent(agentOptions) };
  return {
    close: () => {
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
    request: (url, method, maxBytes, signal) =>
      new Promise<Received>((resolve, reject) => {
        const lib = url.protocol === "https:" ? https : http;
        const agent = url.protocol === "https:" ? agents["https:"] : agents["http:"];
        let settled = false;
        const finish = (error: TargetError | null, value?: Received): void => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          if (error !== null) {
            req.destroy();
            reject(error);
          } else resolve(value!);
        };
        const req = lib.request(url, {
          method,
          agent,
          headers: { "user-agent": "build-index-site-verify", ...options.headers },
        });
        const timer = setTimeout(() => {
          finish(new TargetError("timeout", `${url.href} gave no whole answer within ${options.timeoutMs / 1000} s.`));
        }, options.timeoutMs);
        const onAbort = (): void => finish(new TargetError("other", "stopped"));
        signal.addEventListener("abort", onAbort, { once: true });
        req.on("error", (error: NodeJS.ErrnoException) => finish(describe(error, url)));
        req.on("response", (res) => readResponse(res, url, maxBytes, finish));
        req.end();
      }),
  };
}

/** A redirect to another host (or scheme), which is not followed: the error that says so, or null. */
function foreignRedirect(res: http.IncomingMessage, url: URL): TargetError | null {
  const location = res.headers.location;
  if (res.statusCode === undefined || res.statusCode < 300 || res.statusCode >= 400 || location === undefined)
    return null;
  let to: URL | null = null;
  try {
    to = new URL(location, url);
  } catch {
    to = null;
  }
  if (to !== null && to.host === url.host && to.protocol === url.protocol) return null;
  return new TargetError(
    "redirect",
    `${url.href} redirects to ${to?.href ?? location}, another host: not followed. Verify that URL instead.`,
  );
}

/** Reads an answer whole (up to `maxBytes`), and says how it ended through `finish`. */
function readResponse(
  res: http.IncomingMessage,
  url: URL,
  maxBytes: number,
  finish: (error: TargetError | null, value?: Received) => void,
): void {
  const redirect = foreignRedirect(res, url);
  if (redirect !== null) {
    setImmediate(() => res.destroy());
    finish(redirect);
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  res.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) {
      finish(
        new TargetError(
          "too-large",
          `${url.href} sent more than ${(maxBytes / 1048576).toFixed(1)} MB, far more than the build's answer: stopped reading.`,
        ),
      );
      res.destroy();
      return;
    }
    chunks.push(chunk);
  });
  res.on("error", (error: NodeJS.ErrnoException) => finish(describe(error, url)));
  res.on("aborted", () => finish(new TargetError("reset", `${url.host} closed the connection mid-answer.`)));
  res.on("end", () => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers))
      if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
    finish(null, { status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
  });
}
