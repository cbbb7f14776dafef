// test/preview/preview-as.test.ts
// Issue 52 items 7 and 9: which host a preview answers as (the default: the build's first edge host, else its first
// static host; --static and --edge; --as with a host the build did not write refused), what its first line says,
// and what each host answers for the paths of the files it uploads or not: every path is 200 under `--as <host>`
// exactly when the file is in that host's own upload folder (Cloudflare's assets folder, Vercel's static folder,
// Apache's, nginx's, Netlify's and the fallbacks' copies of the site), and the answer files keep the API's headers
// where the host's config gives them (the edge hosts upload none).

import { spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { CLOUDFLARE_ASSETS } from "../../src/hosts/cloudflare/render.js";
import type { HostName } from "../../src/hosts/names.js";
import { NGINX_ROOT } from "../../src/hosts/nginx/render.js";
import { VERCEL_DIR } from "../../src/hosts/vercel/render.js";
import { layoutOf } from "../../src/layout/paths.js";
import { startPreview } from "../../src/preview/server.js";
import { DEMO_CONTENT, REPO, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";

let root = "";
/** The default hosts (netlify, apache, nginx, vercel, cloudflare), the fallbacks, nginx alone, cloudflare alone. */
const outs = { all: "", fallbacks: "", nginx: "", cloudflare: "" };

beforeAll(async () => {
  root = await tmpDir("bis-preview-as-");
  const hosts: Record<keyof typeof outs, HostName[] | undefined> = {
    all: undefined,
    fallbacks: ["netlify-static", "vercel-static"],
    nginx: ["nginx"],
    cloudflare: ["cloudflare"],
  };
  for (const [name, list] of Object.entries(hosts) as Array<[keyof typeof outs, HostName[] | undefined]>) {
    outs[name] = path.join(root, name, "dist");
    await build({
      content: DEMO_CONTENT,
      out: outs[name],
      sourceDateEpoch: TEST_EPOCH,
      ...(list ? { hosts: list } : {}),
    });
  }
}, 120_000);

afterAll(async () => {
  await removeDir(root);
});

const asOf = async (dir: string, options: { as?: string; semantics?: "edge" | "static" } = {}): Promise<string> => {
  const preview = await startPreview({ dir, port: 0, host: "127.0.0.1", ...options });
  await preview.close();
  return preview.as!;
};

describe("the host a preview answers as", () => {
  test("the first edge host built, else the first static host; --static and --edge pick the first of theirs", async () => {
    expect(await asOf(outs.all)).toBe("netlify");
    expect(await asOf(outs.all, { semantics: "static" })).toBe("apache");
    expect(await asOf(outs.all, { semantics: "edge" })).toBe("netlify");
    expect(await asOf(outs.all, { as: "nginx" })).toBe("nginx");
    expect(await asOf(outs.nginx)).toBe("nginx");
    expect(await asOf(outs.fallbacks)).toBe("netlify-static");
    expect(await asOf(outs.cloudflare)).toBe("cloudflare");
  });

  test("a host the build did not write, an unknown name, and a switch the build cannot serve are refused", async () => {
    await expect(asOf(outs.all, { as: "vercel-static" })).rejects.toThrow(
      /was not built for vercel-static \(its hosts: netlify, apache, nginx, vercel, cloudflare\)/,
    );
    await expect(asOf(outs.all, { as: "iis" })).rejects.toThrow(/Unknown host "iis" for --as/);
    await expect(asOf(outs.nginx, { semantics: "edge" })).rejects.toThrow(/without an edge host/);
    await expect(asOf(outs.cloudflare, { semantics: "static" })).rejects.toThrow(/edge hosts only/);
  });

  test("the CLI's first line names the host and the others; --as contradicts --static", async () => {
    const first = async (...args: string[]): Promise<{ line: string; code: number | null }> => {
      const child = spawn(
        process.execPath,
        [path.join(REPO, "bin/build-index-site.js"), "preview", "--port", "0", ...args],
        {
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let text = "";
      const got = new Promise<{ line: string; code: number | null }>((resolve) => {
        child.stdout.on("data", (d: Buffer) => {
          text += d.toString();
          if (text.includes("\n")) resolve({ line: text.split("\n")[0]!, code: null });
        });
        child.stderr.on("data", (d: Buffer) => (text += d.toString()));
        child.on("exit", (code) => resolve({ line: text.trim(), code }));
      });
      try {
        return await got;
      } finally {
        child.kill("SIGTERM");
      }
    };
    expect((await first("--dir", outs.all)).line).toMatch(
      /^Preview: http:\/\/127\.0\.0\.1:\d+\/ \(as netlify: \/api\.php answered by the request-time handler, exactly; --as apache\|nginx\|vercel\|cloudflare previews another\)$/,
    );
    expect((await first("--dir", outs.all, "--as", "nginx")).line).toMatch(
      /^Preview: http:\/\/\S+ \(as nginx: \/api\.php routed by the raw query to the answer files, with the raw-query fallback; --as netlify\|apache\|vercel\|cloudflare previews another\)$/,
    );
    const both = await first("--dir", outs.all, "--as", "nginx", "--static");
    expect([both.code, both.line]).toEqual([2, expect.stringMatching(/--as and --static contradict each other/)]);
  });
});

/** Each host's own upload folder: what it serves to clients. */
function uploadOf(host: HostName, out: string): string {
  const layout = layoutOf(out);
  if (host === "nginx") return path.join(layout.host("nginx"), NGINX_ROOT);
  if (host === "cloudflare") return path.join(layout.host("cloudflare"), CLOUDFLARE_ASSETS);
  if (host === "vercel") return path.join(layout.base, VERCEL_DIR, "static");
  return layout.host(host);
}

const PATHS = [
  "/api/config.json",
  "/api/findIcon/file/php.json",
  "/api/info.json",
  "/_edge-data/core.json",
  "/config.json",
  "/icons/php.png",
  "/index.html",
  "/catalogue/site.json",
  "/style/demo.css",
];

describe("item 9: every path as the previewed host uploads it", () => {
  const cases: Array<[HostName, keyof typeof outs]> = [
    ["netlify", "all"],
    ["vercel", "all"],
    ["cloudflare", "all"],
    ["nginx", "all"],
    ["apache", "all"],
    ["netlify-static", "fallbacks"],
    ["vercel-static", "fallbacks"],
  ];
  test.each(cases)("%s: 200 exactly for the files of its upload folder", async (host, build) => {
    const upload = uploadOf(host, outs[build]);
    const preview = await startPreview({ dir: outs[build], port: 0, host: "127.0.0.1", as: host });
    try {
      const got: Record<string, number> = {};
      const want: Record<string, number> = {};
      for (const p of PATHS) {
        got[p] = (await fetch(new URL(p, preview.url))).status;
        const file = path.join(upload, ...p.split("/"));
        want[p] = existsSync(file) && statSync(file).isFile() ? 200 : 404;
      }
      expect(got).toEqual(want);
      // The build's --out holds the answer files (static hosts were built), so the check above is not empty.
      expect(existsSync(path.join(outs[build], "api", "config.json"))).toBe(true);
    } finally {
      await preview.close();
    }
  });

  test("an answer file's headers: the API's where the host's config gives them; the edge hosts upload none", async () => {
    const headersAs = async (as: string): Promise<[number, string | null, string | null, string | null]> => {
      const preview = await startPreview({ dir: outs.all, port: 0, host: "127.0.0.1", as });
      try {
        const res = await fetch(new URL("/api/config.json", preview.url));
        await res.arrayBuffer();
        const h = res.headers;
        return [res.status, h.get("access-control-allow-origin"), h.get("cache-control"), h.get("content-type")];
      } finally {
        await preview.close();
      }
    };
    for (const as of ["nginx", "apache"])
      expect(await headersAs(as), as).toEqual([200, "*", "public, max-age=3600", "application/json"]);
    for (const as of ["netlify", "cloudflare", "vercel"]) expect((await headersAs(as))[0], as).toBe(404);
  });
});
