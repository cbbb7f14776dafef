// bench/serve-files.mjs
// serve-handler serving a built site by path, configured like the preview server (same serve.json headers, no
// etags): the baseline the preview's /api.php routing is compared with. Prints "Serving: <url>".
// Usage: node bench/serve-files.mjs <dir>

import { readFileSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { resolveRuntime } from "../test/runtimes/locate.mjs";

// serve-handler is no dependency of ours (the preview serves with send's parts): it comes with `serve`, in the test
// install (test/runtimes), and is loaded from there.
const servePackage = resolveRuntime("serve/package.json");
if (servePackage === null) throw new Error("serve is not installed: run `node scripts/test-runtimes.mjs`.");
const handler = createRequire(servePackage)("serve-handler");

const root = path.resolve(process.argv[2] ?? "dist");
const serveJson = JSON.parse(
  readFileSync(path.join(path.dirname(root), ".build-index-site", path.basename(root), "serve.json"), "utf8"),
);
const config = { ...serveJson, public: root, etag: false, symlinks: false, directoryListing: false, cleanUrls: false };
const server = http.createServer((req, res) => {
  handler(req, res, config).catch((error) => {
    if (!res.headersSent) res.writeHead(500);
    res.end(String(error));
  });
});
server.listen(0, "127.0.0.1", () => console.log(`Serving: http://127.0.0.1:${server.address().port}/`));
process.on("SIGTERM", () => process.exit(0));
