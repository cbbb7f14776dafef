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

// favicon/: a PNG and an .ico (an ICO container holding that PNG).
const favicon = new URL("../content/favicon/", import.meta.url);
mkdirSync(favicon, { recursive: true });
const fav = squarePng(16, [240, 190, 60, 255], [60, 60, 60, 255]);
writeFileSync(new URL("16x16.png", favicon), fav);
const ico = Buffer.alloc(22);
ico.writeUInt16LE(0, 0); // reserved
ico.writeUInt16LE(1, 2); // type: icon
ico.writeUInt16LE(1, 4); // one image
ico[6] = 16; // width
ico[7] = 16; // height
ico.writeUInt16LE(1, 10); // colour planes
ico.writeUInt16LE(32, 12); // bits per pixel
ico.writeUInt32LE(fav.length, 14);
ico.writeUInt32LE(22, 18); // offset of the PNG
writeFileSync(new URL("icon.ico", favicon), Buffer.concat([ico, fav]));
