// scripts/tiny-png.mjs
// The PNG encoder of `init` (src/init/png.ts), for the scripts and the bench: run `npm run build` first.
export { squarePng } from "../lib/init/png.js";
