// test/hosts/netlify-engine.ts
// Netlify's own redirect engine (netlify-redirector, the WebAssembly build the Netlify CLI uses), fed exactly as the
// CLI feeds it: `_redirects` parsed by @netlify/redirect-parser, then from→origin, query→params, Conditions capitalised.

import { createRequire } from "node:module";
import { parseAllRedirects } from "@netlify/redirect-parser";

const require = createRequire(import.meta.url);

interface Matcher {
  match(req: object): { to: string; status: number; force: boolean } | null;
}

const redirector = require("netlify-redirector") as { parseJSON(json: string, options: object): Promise<Matcher> };

export interface NetlifyMatch {
  to: string;
  status: number;
}

export interface NetlifyEngine {
  match(path: string, rawQuery: string): NetlifyMatch | null;
  ruleCount: number;
}

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** Loads a `_redirects` file the way `netlify dev` does (netlify-cli dist/utils/redirects.js + rules-proxy.js). */
export async function loadNetlifyEngine(redirectsFile: string): Promise<NetlifyEngine> {
  const { redirects, errors } = await parseAllRedirects({
    redirectsFiles: [redirectsFile],
    netlifyConfigPath: undefined,
    configRedirects: [],
    minimal: false,
  });
  if (errors.length > 0) throw new Error(`@netlify/redirect-parser: ${errors.map((e: Error) => e.message).join("\n")}`);
  const rules = (redirects as Array<Record<string, unknown>>).map(({ from, query, conditions, ...rest }) => ({
    ...rest,
    origin: from,
    params: query,
    conditions: Object.fromEntries(
      Object.entries((conditions ?? {}) as Record<string, unknown>).map(([k, v]) => [capitalize(k), v]),
    ),
  }));
  const matcher = await redirector.parseJSON(JSON.stringify(rules), { jwtSecret: "", jwtRoleClaim: "" });
  return {
    ruleCount: rules.length,
    match(path, rawQuery) {
      const req = {
        scheme: "http",
        host: "localhost",
        path,
        query: rawQuery,
        headers: {},
        cookieValues: {},
        getHeader: () => "",
        getCookie: () => "",
      };
      const m = matcher.match(req);
      return m === null ? null : { to: m.to, status: m.status };
    },
  };
}
