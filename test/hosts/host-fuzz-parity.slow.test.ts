// test/hosts/host-fuzz-parity.slow.test.ts
// The in-process engines' half of the hostile-key parity (Netlify's redirect engine, Vercel's routing): every
// dangerous key is answered exactly like the preview. host-fuzz.test.ts runs the servers' half.

import { afterAll, describe } from "vitest";
import { removeDir } from "../helpers/fixtures.js";
import { hostileParity } from "./hostile-keys.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

describe("hostile keys through the whole build", () => {
  hostileParity(["netlify-static", "vercel-static"], temps);
});
