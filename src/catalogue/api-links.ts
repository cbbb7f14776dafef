// src/catalogue/api-links.ts
// The catalogue's links to /api.php on a server that does not route it (a static file server such as `npx serve
// dist` answers it with its own 404 page): each such link then opens the page's answer preview with its query,
// computed in the page, and says why. Where /api.php is routed, the links are left to the browser.

/** Shows a query in the page's answer preview; given once the preview can answer (the site data is read). */
export type ShowInPreview = (query: string, note: string) => void;

export const UNROUTED_NOTE =
  "This server does not route /api.php (a static file server, such as `npx serve dist`): the answer below is " +
  "computed in this page. Deploy the host's config, or run `build-index-site preview`, to serve the API itself.";

let routed: Promise<boolean> | null = null;

/**
 * Whether the server answers /api.php as the API does: asked once, with `action=info`, which every host answers
 * 200 with `"success": true` (a static file server answers 404, as HTML or as JSON of its own; file:// nothing).
 */
function apiRouted(link: URL): Promise<boolean> {
  if (routed === null) {
    const probe = new URL(link.href);
    probe.search = "?action=info";
    probe.hash = "";
    routed = fetch(probe.href)
      .then(async (r) => r.ok && ((await r.json()) as { success?: unknown }).success === true)
      .catch(() => false);
  }
  return routed;
}

/** The link to /api.php that a plain click follows, or null (another link, a modified click, another window). */
function apiLink(event: MouseEvent): HTMLAnchorElement | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return null;
  const target = event.target instanceof Element ? event.target.closest("a[href]") : null;
  if (!(target instanceof HTMLAnchorElement) || target.target !== "") return null;
  const url = new URL(target.href);
  if (url.origin !== location.origin || !url.pathname.endsWith("/api.php")) return null;
  return target;
}

/**
 * Takes over the clicks on links to /api.php: each is followed where the server routes /api.php, else its query is
 * shown in the answer preview once `preview` resolves.
 */
export function handleApiLinks(preview: Promise<ShowInPreview>): void {
  document.addEventListener("click", (event) => {
    const link = apiLink(event);
    if (link === null) return;
    event.preventDefault();
    const url = new URL(link.href);
    void apiRouted(url).then(async (ok) => {
      if (ok) {
        location.assign(url.href);
        return;
      }
      (await preview)(url.search.replace(/^\?/, ""), UNROUTED_NOTE);
    });
  });
}
