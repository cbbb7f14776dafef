// scripts/make-demo-content.mjs
// Regenerates the icons of the bundled demo content/ (the JSON files there are written by hand).
// Usage: node scripts/make-demo-content.mjs

import { mkdirSync, writeFileSync } from "node:fs";
import { squarePng } from "./tiny-png.mjs";

const dir = new URL("../content/icons/", import.meta.url);
mkdirSync(dir, { recursive: true });

const png = {
  "folder.png": [240, 190, 60, 255],
  "text.png": [230, 230, 230, 255],
  "php.png": [120, 125, 180, 255],
  "python.png": [55, 115, 170, 255],
  "markdown.png": [90, 90, 90, 255],
  "image.png": [80, 170, 90, 255],
  "archive.png": [160, 110, 60, 255],
  "json.png": [250, 220, 80, 255],
  "non-descript-default-file.png": [200, 200, 200, 255],
};
for (const [name, color] of Object.entries(png)) writeFileSync(new URL(name, dir), squarePng(16, color));

const svg = (fill, label) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">` +
  `<rect x="0.5" y="0.5" width="15" height="15" rx="2" fill="${fill}" stroke="#333"/>` +
  `<text x="8" y="11" font-size="6" text-anchor="middle" font-family="sans-serif">${label}</text></svg>\n`;
writeFileSync(new URL("javascript.svg", dir), svg("#f7df1e", "JS"));
writeFileSync(new URL("css.svg", dir), svg("#2965f1", "CSS"));
writeFileSync(new URL("html.svg", dir), svg("#e34c26", "HTML"));
