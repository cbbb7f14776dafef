// test/edge-hosts/vercel-edge-runtime.ts
// Runs a Vercel edge function file (Build Output API: one ES module whose default export takes a Request) under
// `edge-runtime`, Vercel's emulator of its edge runtime. edge-runtime evaluates scripts, not modules: the file's one
// `export default` becomes a constant that a fetch listener calls, as Vercel's own dev server wires it.

import { EdgeRuntime } from "edge-runtime";

export interface VercelFunction {
  (request: Request): Promise<Response>;
  close(): Promise<void>;
}

const DEFAULT_EXPORT = /^export default /m;

export async function loadVercelFunction(moduleText: string): Promise<VercelFunction> {
  if ((moduleText.match(/^\s*(?:export|import)\b/gm) ?? []).length !== 1 || !DEFAULT_EXPORT.test(moduleText)) {
    throw new Error("The Vercel edge function is not one self-contained module with one default export.");
  }
  const script = `${moduleText.replace(DEFAULT_EXPORT, "const __vercelEntry = ")}
addEventListener("fetch", (event) => { event.respondWith(__vercelEntry(event.request)); });
`;
  const runtime = new EdgeRuntime({ initialCode: script });
  const call = async (request: Request): Promise<Response> => {
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
    const res = await runtime.dispatchFetch(request.url, {
      method: request.method, headers: Object.fromEntries(request.headers), ...(body ? { body } : {}),
    });
    await res.waitUntil();
    // The emulator's Response belongs to its own realm: copy it into this one.
    return new Response(request.method === "HEAD" ? null : await res.arrayBuffer(), {
      status: res.status, headers: Object.fromEntries(res.headers),
    });
  };
  return Object.assign(call, { close: async () => {} });
}
