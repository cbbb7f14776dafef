// test/hosts/pieced-files.test.ts
// A large config held in pieces (nginx-http.conf, src/hosts/shared/pieces.ts): its pieces join to the text it prints,
// its sha1 and size are the text's UTF-8 bytes', and a build writes those bytes into the records.

import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nginx, printNginxHttp, NGINX_HTTP_FILE } from "../../src/hosts/nginx/render.js";
import { piecedFile } from "../../src/hosts/shared/pieces.js";
import { build } from "../../src/pipeline/pipeline.js";
import { DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

const sha1 = (text: string): string => createHash("sha1").update(Buffer.from(text, "utf8")).digest("base64url");

describe("a config held in pieces", () => {
  it("joins to its lines, each with a newline; its sha1 and size are its bytes'", () => {
    const lines = Array.from({ length: 20000 }, (_, i) => (i % 7 === 0 ? `# line ${i} …` : `map $a $b${i} { x y; }`));
    const text = `${lines.join("\n")}\n`;
    const file = piecedFile("big.conf", lines);
    const pieces = [...file.chunks!()];
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join("")).toBe(text);
    expect(file.data).toBe(text);
    expect(file.sha1).toBe(sha1(text));
    expect(file.bytes).toBe(Buffer.byteLength(text, "utf8"));
    expect(piecedFile("one.conf", ["only"]).data).toBe("only\n");
  });

  it("nginx-http.conf: rendered in pieces, written as printed", async () => {
    const root = await tmpDir("bis-pieces-");
    temps.push(root);
    const out = path.join(root, "dist");
    const result = await build({ content: DEMO_CONTENT, out, hosts: ["nginx"], sourceDateEpoch: TEST_EPOCH });
    const text = printNginxHttp(result.routes.table);
    const rendered = nginx.render({ table: result.routes.table, service: "s", out: "dist", entry: () => "" });
    const file = rendered.files.find((f) => f.path === NGINX_HTTP_FILE)!;
    expect(file.chunks).toBeDefined();
    expect(file.data).toBe(text);
    const written = await readFile(path.join(root, ".build-index-site/dist/hosts/nginx", NGINX_HTTP_FILE), "utf8");
    expect(written).toBe(text);
  });
});
