// bench/floor-handler.mjs
// A stand-in for the handler in bench/edge-data.mjs's fresh-isolate rows: the least any handler of this design does on
// a first request: core.json read and parsed through the ASSETS binding, then for a whole-site answer its data file
// streamed through, and for any other request one shard read and parsed and a small JSON answer. Its figures are the
// harness's own share (Node's Web API classes and module loader, the binding's copies of the bytes): the handler's
// own cost is what it measures beyond them.

const WHOLE = {
  icons: "icons",
  iconMappings: "iconMappings",
  config: "config",
  configReference: "configReference",
  extensionMappings: "extensionMappings-all",
};

export default {
  async fetch(request, env) {
    const get = (p) => env.ASSETS.fetch(new Request(new URL(p, request.url)));
    const core = JSON.parse(await (await get("/_edge-data/core.json")).text());
    const url = new URL(request.url);
    const action = url.searchParams.get("action") ?? "";
    const type = url.searchParams.get("type");
    const name =
      action === "extensionMappings" && (type === "indexing" || type === "viewing")
        ? `extensionMappings-${type}`
        : WHOLE[action];
    const headers = new Headers({ "Content-Type": "application/json", ETag: '"floor"' });
    if (name !== undefined && core.whole[name].body === undefined)
      return new Response((await get(`/_edge-data/whole/${name}.json`)).body, { headers });
    const shard = JSON.parse(await (await get(`/_edge-data/shards/${core.shards - 1}.json`)).text());
    return new Response(
      new TextEncoder().encode(`${JSON.stringify({ service: core.service, rows: shard.e.length }, null, 2)}\n`),
      { headers },
    );
  },
};
