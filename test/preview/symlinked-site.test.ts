// test/preview/symlinked-site.test.ts
// A deployment that publishes by pointing a symlink at a new build (dist -> releases/2) must be picked up by the
// preview without a restart, for the API and for plain files alike (issue 8 point 16, issue 10 point 3).

import { rename, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { startPreview, type Preview } from "../../src/preview/server.js";
import { removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { edit, writeBase } from "../helpers/base-content.js";

let root = "";
let content = "";
let preview: Preview | undefined;

beforeAll(async () => {
  root = await tmpDir("bis-symlinked-");
  content = await writeBase();
}, 60_000);

afterAll(async () => {
  await preview?.close();
  await removeDir(root);
  await removeDir(content);
});

it("a site folder that is a symlink moved to a new build kept answering from the old one (or 404 for plain files)", async () => {
  // Each release in a folder of its own (with its records and the edge hosts' folders beside it).
  const first = path.join(root, "release-1", "dist");
  const second = path.join(root, "release-2", "dist");
  await build({ content, out: first, sourceDateEpoch: TEST_EPOCH });
  await edit(content, "icons.json", '"txt": "text.png"', '"txt": "folder.png"');
  await build({ content, out: second, sourceDateEpoch: TEST_EPOCH });
  await writeFile(path.join(second, "style", "only-in-2.css"), "a{}\n");
  const site = path.join(root, "dist");
  await symlink(first, site);
  preview = await startPreview({ dir: site, port: 0, host: "127.0.0.1" });
  const icon = async (): Promise<string> => {
    const r = await fetch(`${preview!.url}api.php?action=findIcon&extension=txt`);
    return ((await r.json()) as { icon: { filename: string } }).icon.filename;
  };
  expect(await icon()).toBe("text.png");

  // Swap the link atomically, as deployments do (ln -s + rename).
  await symlink(second, `${site}.new`);
  await rename(`${site}.new`, site);

  // A plain file first (no /api.php request has reloaded anything yet), then the API.
  const plain = await fetch(`${preview.url}style/only-in-2.css`);
  expect(plain.status).toBe(200);
  expect(await plain.text()).toBe("a{}\n");
  expect(await icon()).toBe("folder.png");
  // Confinement still holds: a symlink inside the new build that leads out of it is not followed.
  await symlink(root, path.join(second, "style", "out"));
  expect((await fetch(`${preview.url}style/out/release-1/dist/config.json`)).status).toBe(404);
}, 60_000);
