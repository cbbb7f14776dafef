// src/cli/preview.ts
// `build-index-site preview`: serve a built site the way a static host with the route table would.

import { Command } from "commander";
import { flag, type Run } from "./common.js";
import { resolveOptions, type Flags } from "./options.js";
import { colorOut, type Io } from "./output.js";
import { logRequests } from "./watch.js";

export function previewCommand(io: Io, run: Run): Command {
  return new Command("preview")
    .description("Serve a built site on http://127.0.0.1:8080 the way a static host with the route table would.")
    .addOption(flag.config())
    .option("--dir <dir>", "built site folder (default: dist, or the config file's out)")
    .addOption(flag.port())
    .addOption(flag.host())
    .option("--edge", "answer /api.php with the emitted request-time handler (what Netlify, Vercel and Cloudflare run) instead of the route table")
    .option("-q, --quiet", "print only the URL (no line per request)")
    .action(async (flags: Flags & { quiet?: boolean; edge?: boolean }) => {
      const options = resolveOptions(flags);
      const { startPreview } = await import("../preview/server.js");
      const preview = await startPreview({ dir: options.out, port: options.port, host: options.host, edge: flags.edge === true });
      if (!flags.quiet) logRequests(preview.server, (line) => io.out(colorOut(io, "dim", line)));
      io.out(`Preview: ${preview.url} (${flags.edge === true
        ? "edge semantics: /api.php answered by the request-time handler, as on Netlify, Vercel and Cloudflare"
        : "static semantics: /api.php answered from the route table, as on nginx, Apache and the static hosts"})`);
      run.wait = new Promise<number>((resolve) => preview.server.on("close", () => resolve(0)));
    });
}
