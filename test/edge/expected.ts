// test/edge/expected.ts
// The oracle for the edge parity suites: the reference's answer to an EdgeRequest, computed by src/php's answers
// through the PHP request layer (src/php/php-request.ts phpRespond). It is NOT checked by the suites that use it:
// test/edge/php-request.test.ts checks it against real PHP 8.2 (golden parse_str/basename/strtolower/json_encode,
// version_compare) and the examples of reference-behaviour.md, and test/edge/domain-parity.test.ts against the
// precomputed files.

import { createHash } from "node:crypto";
import { phpRespond, type PhpResponse } from "../../src/php/php-request.js";
import type { SiteModel } from "../../src/model/types.js";
import type { EdgeRequest } from "./requests.js";

/** What a client must receive: status, headers (names as the answer spells them), body ("" for HEAD and OPTIONS). */
export function expectedAnswer(site: SiteModel, request: Pick<EdgeRequest, "method" | "query">): PhpResponse {
  const answer = phpRespond(site, request.method, request.query);
  return {
    ...answer,
    headers: {
      ...answer.headers,
      ...etagOf(phpRespond(site, request.method === "HEAD" ? "GET" : request.method, request.query)),
    },
  };
}

/** A 200 answer with a body carries a strong ETag: the SHA-1 of its bytes, base64url (issue 27: as the manifest's). */
export function etagOf(answer: { status: number; body: string }): Record<string, string> {
  if (answer.status !== 200 || answer.body === "") return {};
  return { ETag: `"${createHash("sha1").update(answer.body).digest("base64url")}"` };
}
