// src/preview/problems.ts
// What `dev` serves when it starts with content that does not build and no earlier build to show: a page that lists
// the content errors (every path), and a 503 for /api.php, until a build succeeds and the site takes its place.

import type http from "node:http";
import { formatDiagnostic, type Diagnostic } from "../errors.js";

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function problemsPage(contentDir: string, problems: readonly Diagnostic[]): string {
  const items = problems.map((d) => `<li><pre>${escape(formatDiagnostic(d))}</pre></li>`).join("\n");
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Content errors: build-index-site dev</title></head>
<body>
<h1>The content in ${escape(contentDir)}/ does not build</h1>
<p>${problems.length === 1 ? "This problem stops" : `These ${problems.length} problems stop`} the build. Fix ${problems.length === 1 ? "it" : "them"} and save: this page turns into the site.</p>
<ol>
${items}
</ol>
</body>
</html>
`;
}

/** A listener answering every request with the problems: the page (503 for /api.php, as JSON, which a client reads). */
export function problemsListener(contentDir: string, problems: readonly Diagnostic[]): http.RequestListener {
  const page = problemsPage(contentDir, problems);
  const api = `${JSON.stringify({ success: false, error: `The content in ${contentDir}/ does not build: ${problems.length} problem(s); see / for the list.` })}\n`;
  return (req, res) => {
    const isApi = /^\/api\.php(?:[/?]|$)/.test(new URL(req.url ?? "/", "http://dev.invalid").pathname + "?");
    const body = isApi ? api : page;
    res.writeHead(503, {
      "Content-Type": isApi ? "application/json" : "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Retry-After": "1",
      "Content-Length": Buffer.byteLength(body),
    });
    res.end(req.method === "HEAD" ? undefined : body);
  };
}
