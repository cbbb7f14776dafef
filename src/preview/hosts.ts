// src/preview/hosts.ts
// Which host a preview answers as, and what that host does that the others do not: how it answers /api.php (the
// request-time handler, the route table on the raw query, Netlify's or Vercel's rules), which of the build's files
// it uploads (the answer files under /api/, the handler's data under /_edge-data/), and whose static file serving
// it has (nginx, Apache, or RFC 9110's). The default is an edge host when one is built, else the first static host.

import { UsageError } from "../errors.js";
import { HOST_NAMES, isEdgeHost, type HostName } from "../hosts/names.js";
import type { RangeFlavour } from "./ranges.js";

/** A host of the build, or "route-table": the route table evaluated exactly (no host's fallbacks; tests compare
 * every static host with it). */
export type PreviewAs = HostName | "route-table";

export interface HostBehaviour {
  as: PreviewAs;
  /** How /api.php is answered. */
  api: "handler" | "raw-query" | "netlify-redirects" | "vercel-json" | "route-table";
  /** The answer files (/api/…) as paths of their own: with the API's headers (every static host configures them by
   * path), or not uploaded at all (the edge hosts' own copies of the site leave them out). */
  answerFiles: "api" | "absent";
  /** Whether the handler's data files (/_edge-data/…) are uploaded: by the edge hosts only (the static hosts' own
   * copies of the site leave them out). */
  edgeData: boolean;
  /** Whose static file serving: ranges, conditional requests, methods, folders and odd paths (see server.ts). */
  server: RangeFlavour;
  /** Whether /api.php/… (PHP's PATH_INFO) is the API too: the fallbacks' rules name /api.php alone. */
  pathInfo: boolean;
}

const BEHAVIOURS: Record<PreviewAs, Omit<HostBehaviour, "as">> = {
  netlify: { api: "handler", answerFiles: "absent", edgeData: true, server: "rfc", pathInfo: true },
  vercel: { api: "handler", answerFiles: "absent", edgeData: true, server: "rfc", pathInfo: true },
  cloudflare: { api: "handler", answerFiles: "absent", edgeData: true, server: "rfc", pathInfo: true },
  nginx: { api: "raw-query", answerFiles: "api", edgeData: false, server: "nginx", pathInfo: true },
  apache: { api: "raw-query", answerFiles: "api", edgeData: false, server: "apache", pathInfo: true },
  "netlify-static": { api: "netlify-redirects", answerFiles: "api", edgeData: false, server: "rfc", pathInfo: false },
  "vercel-static": { api: "vercel-json", answerFiles: "api", edgeData: false, server: "rfc", pathInfo: false },
  "route-table": { api: "route-table", answerFiles: "api", edgeData: true, server: "rfc", pathInfo: true },
};

export const behaviourOf = (as: PreviewAs): HostBehaviour => ({ as, ...BEHAVIOURS[as] });

/** What a preview is asked to answer as: a host's name, or the old switches (`--edge`, `--static`). */
export interface AsRequest {
  as?: string;
  semantics?: "edge" | "static";
  edge?: boolean;
}

/** The host a preview of a build of `hosts` answers as; a usage error for a host the build did not write. */
export function choosePreviewAs(dir: string, hosts: readonly string[], asked: AsRequest): PreviewAs {
  const built = HOST_NAMES.filter((h) => hosts.includes(h));
  const edge = built.filter(isEdgeHost);
  const stat = built.filter((h) => !isEdgeHost(h));
  const list = built.join(", ");
  const wants = asked.semantics ?? (asked.edge === true ? "edge" : undefined);
  if (asked.as === "route-table" || wants === "static") {
    if (stat.length === 0)
      throw new UsageError(
        `${dir} was built for edge hosts only (${list}): it holds no answer files for the static rules.`,
        "Preview without --static (the handler answers, as on the deploy), or build with a static host in --hosts (apache, nginx, netlify-static, vercel-static).",
      );
    if (asked.as === "route-table") return "route-table";
  }
  if (asked.as !== undefined) {
    if (built.includes(asked.as as HostName)) return asked.as as HostName;
    const known = (HOST_NAMES as readonly string[]).includes(asked.as);
    throw new UsageError(
      known
        ? `${dir} was not built for ${asked.as} (its hosts: ${list}): there is nothing of ${asked.as}'s to preview.`
        : `Unknown host "${asked.as}" for --as.`,
      known
        ? `Pass --as with one of ${list}, or build with ${asked.as} in --hosts.`
        : `Choose one of ${list} (or route-table).`,
    );
  }
  if (wants === "edge" && edge.length === 0) {
    throw new UsageError(
      `${dir} was built without an edge host: there is no request-time handler to preview.`,
      "Build with netlify, vercel or cloudflare in --hosts (they are in the default), or preview with --static.",
    );
  }
  const pick = wants === "static" ? stat[0] : wants === "edge" ? edge[0] : (edge[0] ?? stat[0]);
  if (pick === undefined) throw new UsageError(`${dir} names no host.`, "Build it again.");
  return pick;
}

const API_BY: Record<HostBehaviour["api"], string> = {
  handler: "/api.php answered by the request-time handler, exactly",
  "raw-query": "/api.php routed by the raw query to the answer files, with the raw-query fallback",
  "netlify-redirects": "/api.php routed by _redirects as Netlify matches it",
  "vercel-json": "/api.php routed by vercel.json's rewrites",
  "route-table": "/api.php routed by the route table, exactly",
};

/** What the start-up line says a preview answers as ("as netlify: …"), and the other hosts it could. */
export function asLine(as: PreviewAs, hosts: readonly string[]): string {
  const others = HOST_NAMES.filter((h) => hosts.includes(h) && h !== as);
  const rest = others.length === 0 ? "" : `; --as ${others.join("|")} previews another`;
  return `as ${as}: ${API_BY[behaviourOf(as).api]}${rest}`;
}
