// test/pipeline/hosts-record.test.ts
// The records' hosts.json (src/hosts/record.ts): the next build reads the hosts' files back from where the last one
// wrote them when they were made from the same route table, service, --out, hosts and tool, instead of making them
// again. Read back, they are exactly what the adapters make; any doubt (another key, a file gone or edited by hand,
// an unfinished update) makes them again.

import { rm, writeFile } from "node:fs/promises";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { compile } from "../../src/pipeline/compile.js";
import { renderHosts } from "../../src/hosts/index.js";
import { DEFAULT_HOSTS } from "../../src/hosts/names.js";
import type { HostFile } from "../../src/hosts/types.js";
import { parseHostsRecord, printHostsRecord } from "../../src/hosts/record.js";
import { HOSTS_RECORD_FILE, layoutOf } from "../../src/layout/paths.js";
import { lastBuild } from "../../src/layout/last-build.js";
import { entryBundle } from "../../src/edge/index.js";
import { copyContent, DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

describe("hosts.json", () => {
  it("prints and parses back; refuses what it does not know", () => {
    const outputs = [
      { name: "apache" as const, output: { files: [{ path: ".htaccess", data: "x" }], docroot: "site" as const } },
      {
        name: "netlify" as const,
        output: {
          files: [],
          beside: [{ dir: ".netlify/v1", files: [{ path: "config.json", data: "{}" }], plainFiles: "static" }],
        },
        handlerBytes: 3,
        handlerGzipBytes: 2,
      },
    ];
    const sha1 = (text: string): string => createHash("sha1").update(text).digest("base64url");
    expect(parseHostsRecord(printHostsRecord("k", outputs))).toEqual({
      key: "k",
      hosts: [
        { name: "apache", files: [{ path: ".htaccess", sha1: sha1("x") }], docroot: "site", beside: [] },
        {
          name: "netlify",
          files: [],
          beside: [{ dir: ".netlify/v1", files: [{ path: "config.json", sha1: sha1("{}") }], plainFiles: "static" }],
          handlerBytes: 3,
          handlerGzipBytes: 2,
        },
      ],
    });
    for (const text of [
      "",
      "[]",
      '{"format":2,"key":"k","hosts":[]}',
      '{"format":1,"key":"k","hosts":[{"name":"iis","files":[],"beside":[]}]}',
      '{"format":1,"key":"k","hosts":[{"name":"apache","files":[".htaccess"],"beside":[]}]}',
      // Paths that would lead out of their folder.
      '{"format":1,"key":"k","hosts":[{"name":"apache","files":[{"path":"../../dist/x","sha1":"s"}],"beside":[]}]}',
      '{"format":1,"key":"k","hosts":[{"name":"apache","files":[{"path":"/etc/passwd","sha1":"s"}],"beside":[]}]}',
      '{"format":1,"key":"k","hosts":[{"name":"apache","files":[{"path":"..\\\\x","sha1":"s"}],"beside":[]}]}',
      '{"format":1,"key":"k","hosts":[{"name":"apache","files":[{"path":"a//b","sha1":"s"}],"beside":[]}]}',
      '{"format":1,"key":"k","hosts":[{"name":"vercel","files":[],"beside":[{"dir":"../..","files":[]}]}]}',
    ]) {
      expect(parseHostsRecord(text), text).toBeNull();
    }
  });

  it("gives back the hosts' files as the adapters make them, only for its own key and a whole build", async () => {
    const content = await copyContent(DEMO_CONTENT);
    const root = await tmpDir("bis-hosts-record-");
    temps.push(content, root);
    const out = path.join(root, "dist");
    await build({ content, out, sourceDateEpoch: TEST_EPOCH });
    const layout = layoutOf(out);
    const record = parseHostsRecord(readFileSync(path.join(layout.records, HOSTS_RECORD_FILE), "utf8"))!;
    expect(record.hosts.map((h) => h.name).sort()).toEqual([...DEFAULT_HOSTS].sort());

    const { routes, model } = await compile({ content, out, sourceDateEpoch: TEST_EPOCH });
    const fresh = renderHosts(
      { table: routes.table, service: model.service, out: "dist", entry: entryBundle },
      DEFAULT_HOSTS,
    ).outputs;
    const kept = lastBuild(layout).hostOutputs(record.key);
    // Each file read back carries its sha1 (the record's, checked) and its size in bytes: the record is printed, and
    // the file measured and written, without hashing or measuring it again.
    const sha1 = (data: string): string => createHash("sha1").update(data).digest("base64url");
    const withSha1 = (files: readonly HostFile[]): HostFile[] =>
      files.map((f) => ({ ...f, sha1: sha1(f.data), bytes: Buffer.from(f.data, "utf8").length }));
    expect(kept?.map(({ name, output }) => ({ name, output }))).toEqual(
      fresh.map(({ name, output }) => ({
        name,
        output: {
          ...output,
          files: withSha1(output.files),
          ...(output.beside === undefined
            ? {}
            : { beside: output.beside.map((b) => ({ ...b, files: withSha1(b.files) })) }),
        },
      })),
    );
    expect(kept!.filter((h) => h.handlerGzipBytes !== undefined).length).toBeGreaterThan(0);

    expect(lastBuild(layout).hostOutputs(`${record.key}x`)).toBeNull();
    await writeFile(layout.journal, "build-index-site update 1\n");
    expect(lastBuild(layout).hostOutputs(record.key)).toBeNull();
    await rm(layout.journal);
    // A file edited by hand since: made again.
    const conf = path.join(layout.records, "hosts/nginx/nginx.conf");
    const text = readFileSync(conf, "utf8");
    await writeFile(conf, text.replace("location", "location "));
    expect(lastBuild(layout).hostOutputs(record.key)).toBeNull();
    await writeFile(conf, text);
    expect(lastBuild(layout).hostOutputs(record.key)).not.toBeNull();
    await rm(conf);
    expect(lastBuild(layout).hostOutputs(record.key)).toBeNull();
  });
});
