// bench/ports.mjs
// The loopback ports the bench's servers listen on: a free one, and waiting until a started server answers there.

import net from "node:net";

/** A port on 127.0.0.1 that nothing listens on now. */
export const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** Resolves once `port` takes connections; throws when `child` (named `name`) exits first or 15 s pass. */
export async function waitForPort(port, child, name, log = async () => "") {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited before listening:\n${await log()}`);
    const ok = await new Promise((resolve) => {
      const s = net.connect(port, "127.0.0.1");
      s.once("connect", () => {
        s.destroy();
        resolve(true);
      });
      s.once("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${name} did not listen on ${port}`);
}
