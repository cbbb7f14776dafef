// src/cli/preview.ts
// `build-index-site preview`: serve a built site as one of the hosts it was built for answers it (--as; by default an
// edge host when one is built, else the first static host), that host's fallbacks included. The start-up line says
// which host, and names the others.

import { Command } from "commander";
import { UsageError } from "../errors.js";
import { flag, type Run } from "./shared.js";
import { optionsReadingSite, type Flags } from "./options.js";
import { colorErr, colorOut, type Io } from "./output.js";
import { logRequests } from "./watch.js";

/** The flags that pick the host a preview answers as (preview and dev). */
export interface AsFlags {
  as?: string;
  edge?: boolean;
  static?: boolean;
}

export const AS_HELP =
  "answer as this host of the build does, its fallbacks included: netlify, vercel, cloudflare (the request-time handler), nginx, apache, netlify-static, vercel-static, or route-table (the route table exactly, no host's fallbacks) (default: the build's first edge host, else its first static host)";
export const STATIC_HELP =
  "answer as the build's first static host (--as with apache, nginx, netlify-static or vercel-static)";
export const EDGE_HELP = "answer as the build's first edge host (--as with netlify, vercel or cloudflare)";

/** The preview options the flags ask for; a usage error when they contradict each other. */
export function asOptions(flags: AsFlags): { as?: string; semantics?: "edge" | "static" } {
  const given = [
    flags.as !== undefined && "--as",
    flags.edge === true && "--edge",
    flags.static === true && "--static",
  ];
  const named = given.filter((g): g is string => g !== false);
  if (named.length > 1)
    throw new UsageError(
      `${named.join(" and ")} contradict each other.`,
      "Pass one of them, or none (the build decides).",
    );
  if (flags.as !== undefined) return { as: flags.as };
  if (flags.static === true) return { semantics: "static" };
  if (flags.edge === true) return { semantics: "edge" };
  return {};
}

export function previewCommand(io: Io, run: Run): Command {
  return new Command("preview")
    .description(
      "Serve a built site on http://127.0.0.1:8080 as one of its hosts answers it (an edge host when one is built, else the first static host; --as picks another).",
    )
    .addOption(flag.config())
    .option("--dir <dir>", "the built site to serve, as the config file's out names it (default: dist)")
    .addOption(flag.port())
    .addOption(flag.host())
    .option("--as <host>", AS_HELP)
    .option("--static", STATIC_HELP)
    .option("--edge", EDGE_HELP)
    .option("-q, --quiet", "no line per request (the URL and errors are still printed)")
    .action(async (flags: Flags & AsFlags & { quiet?: boolean }) => {
      const options = optionsReadingSite(flags);
      const as = asOptions(flags);
      const { startPreview, asLine } = await import("../preview/server.js");
      const preview = await startPreview({ dir: options.out, port: options.port, host: options.host, ...as });
      if (!flags.quiet) logRequests(preview.server, (line) => io.out(colorOut(io, "dim", line)));
      io.out(`Preview: ${preview.url} (${asLine(preview.as!, preview.hosts)})`);
      const { isIncomplete, incompleteLine } = await import("../layout/build-status.js");
      if (isIncomplete(options.out)) io.err(colorErr(io, "yellow", `Warning: ${incompleteLine(`${options.out}/`)}`));
      run.wait = new Promise<number>((resolve) => preview.server.on("close", () => resolve(0)));
    });
}
