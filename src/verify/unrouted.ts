// src/verify/unrouted.ts
// Tells a server that does not route /api.php (a static file server such as `npx serve dist`, which routes on paths
// and never on queries) from a site that answers wrongly: every GET of /api.php, whatever its query, got the same
// 404. `verify` then says what the target is instead of counting each request as its own difference.

import { createHash } from "node:crypto";
import type { Received } from "./compare-answers.js";
import type { VerifyRequest } from "./requests.js";

export const UNROUTED =
  "the server does not route /api.php: it looks like a static file server (every request to /api.php got the same " +
  "404); deploy the host's config, or use preview";

/** The GET answers to /api.php seen during a run: how many, how many matched, and which answers there were. */
export class ApiAnswers {
  private asked = 0;
  private passed = 0;
  private readonly answers = new Set<string>();

  note(request: VerifyRequest, got: Received, matched: boolean): void {
    if (request.kind !== "api" || request.method !== "GET") return;
    this.asked += 1;
    if (matched) this.passed += 1;
    // A few distinct answers are enough to tell: stop hashing past them.
    if (this.answers.size < 2) this.answers.add(`${got.status} ${createHash("sha1").update(got.body).digest("hex")}`);
  }

  /** Why every API request failed, when it is one 404 for all (at least two asked); else null. */
  diagnosis(): string | null {
    const [only] = this.answers;
    return this.asked >= 2 && this.passed === 0 && this.answers.size === 1 && only!.startsWith("404 ")
      ? UNROUTED
      : null;
  }
}
