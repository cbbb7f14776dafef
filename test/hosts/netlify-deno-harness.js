// test/hosts/netlify-deno-harness.js
// Run by Deno (never by Node): a minimal Netlify edge, enough to run the edge functions a build wrote through the
// Frameworks API. It reads `<base>/.netlify/v1/config.json`, imports each declared function from
// `edge-functions/<name>/<name>.js` (or `index.js`), and serves HTTP on 127.0.0.1: a request whose path matches a
// declaration (URLPattern, in declaration order) goes to its function with a minimal Context, whose `next()` serves
// the file of the published folder; any other request is served from that folder directly (a small static server:
// a type by extension, a folder's index.html).
// Usage: deno run --allow-read=<base> --allow-net=127.0.0.1 --allow-env netlify-deno-harness.js <base> <publish>
// Prints "listening <port>" once ready. With REQUIRE_AUTH set, every request without that Authorization header gets
// 401 (a password-protected deploy preview). GET /__harness/calls lists the paths the edge functions were called
// with (so a test sees a data read that re-entered a function).

const [base, publish] = Deno.args;
if (!base || !publish) throw new Error("usage: netlify-deno-harness.js <base dir> <publish dir>");
const join = (...parts) => parts.join("/").replace(/\/+/g, "/");
const v1 = join(base, ".netlify/v1");
const config = JSON.parse(await Deno.readTextFile(join(v1, "config.json")));

async function loadFunction(name) {
  for (const file of [`${name}/${name}.js`, `${name}/index.js`, `${name}.js`]) {
    const path = join(v1, "edge-functions", file);
    try {
      await Deno.stat(path);
    } catch {
      continue;
    }
    return (await import(new URL(`file://${path.startsWith("/") ? "" : "/"}${path}`).href)).default;
  }
  throw new Error(`edge function ${name} not found in ${v1}/edge-functions`);
}

const declarations = [];
for (const d of config.edge_functions ?? []) {
  declarations.push({ ...d, pattern: new URLPattern({ pathname: d.path }), handler: await loadFunction(d.function) });
}

// Netlify's global: environment variables only.
globalThis.Netlify = {
  env: {
    get: (name) => Deno.env.get(name),
    has: (name) => Deno.env.has(name),
    toObject: () => Deno.env.toObject(),
    set: (name, value) => Deno.env.set(name, value),
    delete: (name) => Deno.env.delete(name),
  },
};

const TYPES = {
  json: "application/json",
  png: "image/png",
  svg: "image/svg+xml",
  css: "text/css",
  html: "text/html",
  txt: "text/plain",
  js: "text/javascript",
  ico: "image/x-icon",
  gif: "image/gif",
  jpg: "image/jpeg",
  webp: "image/webp",
};

/** The published file for a request path, as Netlify's static serving answers it (a folder's path: its index.html). */
async function serveFile(request) {
  const url = new URL(request.url);
  let path;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return new Response("Bad Request", { status: 400 });
  }
  if (path.endsWith("/")) path += "index.html";
  if (path.split("/").includes("..")) return new Response("Not Found", { status: 404 });
  try {
    const data = await Deno.readFile(join(publish, path));
    const ext = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
    const headers = { "Content-Type": TYPES[ext] ?? "application/octet-stream" };
    return new Response(request.method === "HEAD" ? null : data, { status: 200, headers });
  } catch {
    return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/html" } });
  }
}

function context(request, params) {
  return {
    next: () => serveFile(request),
    params,
    geo: {},
    ip: "127.0.0.1",
    requestId: crypto.randomUUID(),
    site: { id: "test", name: "test", url: new URL(request.url).origin },
    deploy: { id: "test", context: "dev", published: false },
    server: { region: "local" },
    account: { id: "test" },
    cookies: { get: () => undefined, set() {}, delete() {} },
    url: new URL(request.url),
    waitUntil() {},
    json: (value, init) => Response.json(value, init),
    log: console.log,
  };
}

const REQUIRE_AUTH = Deno.env.get("REQUIRE_AUTH");
const calls = [];

Deno.serve(
  {
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ port }) => console.log(`listening ${port}`),
  },
  async (request) => {
    const url = new URL(request.url);
    if (url.pathname === "/__harness/calls") return Response.json(calls);
    if (REQUIRE_AUTH && request.headers.get("authorization") !== REQUIRE_AUTH)
      return new Response("Unauthorized", { status: 401 });
    for (const d of declarations) {
      const m = d.pattern.exec({ pathname: url.pathname });
      if (m === null) continue;
      calls.push(url.pathname);
      return await d.handler(request, context(request, m.pathname.groups));
    }
    return serveFile(request);
  },
);
