// src/layout/handler-module.ts
// The request-time handler a build emitted (a module's text in its records), loaded as an instance of its own.

/** How a host serves the handler its data files: Cloudflare's ASSETS binding, or its like. */
export interface Assets {
  fetch(request: Request): Promise<Response>;
}

/**
 * The request-time handler the build emitted (the edge hosts' exact answers), as an ES module's default export. Its
 * data files come from `env.ASSETS` (the preview passes a fetch to its own static serving); without it, from the
 * build's --out (what `verify` needs: the exact answers, without a server).
 */
export interface EdgeHandler {
  fetch(request: Request, env?: { ASSETS: Assets }): Promise<Response>;
}

/** How many times a handler was loaded (each load gets an instance of its own). */
let loads = 0;

/**
 * Loads the handler whose text is `text` (`version` names the records it was read from), or null when its module
 * has no `fetch`. An instance of its own per load (the handler's text is the same for every build, and an import of
 * the same URL returns the instance already loaded, with its cache): after a rebuild, the data are read again.
 */
export async function loadHandler(text: string, version: string): Promise<Required<EdgeHandler> | null> {
  const worker = await evaluateHandler(text, `\n// ${version} ${++loads}\n`);
  return typeof worker?.fetch === "function" ? worker : null;
}

/**
 * The default export of a handler module's text. Evaluated as the body of a function when the text ends the way
 * esbuild ends a bundle (`export { x as default };`) and holds no other import or export (src/edge/bundle.ts): what the
 * function made is let go with it. An `import()` of a module stays in Node's module map for good, with every datum its
 * handler cached: `dev` loads one per rebuild. A function called again makes new instances of its
 * own. Any other text is imported as a module of its own (`unique` makes its URL new).
 */
async function evaluateHandler(text: string, unique: string): Promise<Required<EdgeHandler> | undefined> {
  const tail = /\nexport\s*\{\s*([A-Za-z_$][\w$]*)\s+as\s+default\s*\};?\s*$/.exec(text);
  const body = tail === null ? "" : text.slice(0, tail.index);
  if (tail !== null && !/^\s*(import|export)\b|\bimport\s*[.(]/m.test(body)) {
    return (new Function(`"use strict";\n${body}\nreturn ${tail[1]!};`) as () => Required<EdgeHandler> | undefined)();
  }
  const mod = (await import(`data:text/javascript;base64,${Buffer.from(text + unique).toString("base64")}`)) as {
    default?: Required<EdgeHandler>;
  };
  return mod.default;
}
