// test/hosts/known-differences.ts
// The only differences from the preview the parity suite accepts, per host and request category. The README's
// "Known differences" table says the same; a difference in any other category fails the suite.

import type { HostName } from "../../src/hosts/index.js";
import type { Category } from "./requests.js";

export interface KnownDifference {
  category: Category;
  why: string;
}

const ENCODED: KnownDifference = {
  category: "encoded",
  why:
    "The raw query is matched, not decoded: a value sent with percent-encoded letters or digits (`%70hp`) " +
    "counts as an unknown value. Clients send these characters unencoded.",
};

const IGNORE_CASE: KnownDifference[] = [
  {
    category: "case",
    why:
      "Case-insensitive sets (getExtensionSetting's extension, findIcon's other case mixes) are listed in lower " +
      "case only: `extension=PHP` for getExtensionSetting gets the unknown-extension answer (findIcon's UPPER and " +
      "Capitalized spellings are precomputed and exact).",
  },
  { category: "mixed-case", why: "As for case: other spellings (`pHp`) get the fallback answer of the rule." },
];

export const KNOWN_DIFFERENCES: Record<HostName, KnownDifference[]> = {
  // The edge outputs run the request-time handler: no known difference.
  netlify: [],
  vercel: [],
  "netlify-static": [
    ...IGNORE_CASE,
    {
      category: "bare",
      why: 'A parameter without "=" (`&type`) counts as absent, not as the empty value; the later fallback rule answers.',
    },
    {
      category: "left-out",
      why:
        "A literal `_redirects` cannot spell (space, `#`, `%`, `=`, `/`, `:`, non-ASCII, …) leaves its rule out: " +
        "the fallback answers.",
    },
  ],
  apache: [ENCODED],
  nginx: [ENCODED],
  "vercel-static": IGNORE_CASE,
  cloudflare: [],
};
