// bench/warm-web-apis.mjs
// Node's Web API machinery (Response, Request, URL, TextEncoder/Decoder), used once before a handler is timed: a
// host's isolate has it ready, a fresh Node process or worker does not, and its first use would be charged to the
// handler's first request.

export async function warmWebApis() {
  const res = new Response(new Response("x", { headers: new Headers({ a: "b" }) }).body, { status: 200 });
  await res.arrayBuffer();
  await new Response(new Uint8Array(4)).text();
  new Request("https://warm.example/a?b").headers.get("x");
  void new URL("https://warm.example/a?b").origin;
  new TextDecoder().decode(new TextEncoder().encode("x"));
}
