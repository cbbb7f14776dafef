// src/cli/preview.ts
// `build-index-site preview`: serve a built site the way its deploy answers: with the request-time handler when the
// build has an edge host (the default hosts do), with the static rules (route table and answer files) otherwise or
// with --static. The start-up line says which.

import { Command } from "commander";
import { UsageError } from "../errors.js";
import { flag, type Run } from "./shared.js";
import { optionsReadingSite, type Flags } from "./options.js";
import { colorErr, colorOut, type Io } from "./output.js";
import { logRequests } from "./watch.js";

export function previewCommand(io: Io, run: Run): Command {
  return new Command("preview")
    .description(
      "Serve a built site on http://127.0.0.1:8080 the way its deploy answers (the edge handler when the build has an edge host, else the static rules).",
    )
    .addOption(flag.config())
    .option("--dir <dir>", "the built site to serve, as the config file's out names it (default: dist)")
    .addOption(flag.port())
    .addOption(flag.host())
    .option(
      "--static",
      "answer /api.php with the route table and the answer files (what apache, nginx, netlify-static and vercel-static do)",
    )
    .option(
      "--edge",
      "answer /api.php with the emitted request-time handler (what Netlify, Vercel and Cloudflare run): the default when the build has an edge host",
    )
    .option("-q, --quiet", "no line per request (the URL and errors are still printed)")
    .action(async (flags: Flags & { quiet?: boolean; edge?: boolean; static?: boolean }) => {
      const options = optionsReadingSite(flags);
      if (flags.edge === true && flags.static === true)
        throw new UsageError(
          "--edge and --static contradict each other.",
          "Pass one of them, or neither (the build decides).",
        );
      const { startPreview, semanticsLine } = await import("../preview/server.js");
      const preview = await startPreview({
        dir: options.out,
        port: options.port,
        host: options.host,
        ...(flags.static === true
          ? { semantics: "static" as const }
          : flags.edge === true
            ? { semantics: "edge" as const }
            : {}),
      });
      if (!flags.quiet) logRequests(preview.server, (line) => io.out(colorOut(io, "dim", line)));
      io.out(`Preview: ${preview.url} (${semanticsLine(preview.semantics ?? "static")})`);
      const { isIncomplete, incompleteLine } = await import("../layout/read-build.js");
      if (isIncomplete(options.out)) io.err(colorErr(io, "yellow", `Warning: ${incompleteLine(`${options.out}/`)}`));
      run.wait = new Promise<number>((resolve) => preview.server.on("close", () => resolve(0)));
    });
}
