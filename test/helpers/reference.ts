// test/helpers/reference.ts
// I/O: starts the reference PHP service (../shared/reference/serve-reference.sh: php -S under setsid) over a copy of
// a content folder, its process group listed for the run's cleanup (test/helpers/processes.ts).

import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { freePort, type RunningServer } from "../hosts/servers.js";
import { SHARED_DIR } from "./needs.js";
import { signalGroup, trackGroup } from "./processes.js";

const SERVE = path.join(SHARED_DIR, "reference", "serve-reference.sh");

/** php -S over `content` with `workers` PHP_CLI_SERVER_WORKERS; its copy and logs go into `run` (not removed). */
export async function startReference(content: string, run: string, workers?: number): Promise<RunningServer> {
  const port = await freePort();
  const { stdout } = await promisify(execFile)("bash", [SERVE, content, String(port), run], {
    env: { ...process.env, ...(workers === undefined ? {} : { PHP_CLI_SERVER_WORKERS: String(workers) }) },
  });
  const [pid, url] = stdout.trim().split(" ");
  const group = Number(pid); // setsid: php -S and its workers are one process group, led by this pid
  const untrack = trackGroup(group);
  return {
    url: url!,
    async stop() {
      signalGroup(group, "SIGTERM");
      for (let waited = 0; waited < 5000 && isAlive(group); waited += 50) await new Promise((r) => setTimeout(r, 50));
      signalGroup(group, "SIGKILL");
      untrack();
    },
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
