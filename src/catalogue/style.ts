// src/catalogue/style.ts
// The catalogue's style sheet, written to dist/catalogue/catalogue.css (a file: the pages allow no inline style).
// Colours meet WCAG AA contrast on both schemes; focus is always visible.

export const ROW_HEIGHT = 64;

export const CATALOGUE_CSS = `/* build-index-site: the icon catalogue. */
:root { color-scheme: light dark; --fg: #1a1a1a; --bg: #ffffff; --muted: #4a4a4a; --line: #d0d0d0; --accent: #0b57d0; --warn: #8a1c00; --mark: #fff3c4; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #ececec; --bg: #121212; --muted: #b8b8b8; --line: #3a3a3a; --accent: #8ab4f8; --warn: #ffb4a0; --mark: #3d3300; }
}
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 72rem; padding: 0 1rem 3rem; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
a:focus-visible, input:focus-visible, [tabindex]:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -100vw; }
.skip:focus { left: 1rem; top: 1rem; background: var(--bg); padding: .5rem; z-index: 2; }
h1 { font-size: 1.6rem; margin: 1.2rem 0 .3rem; }
h2 { font-size: 1.25rem; margin: 1.6rem 0 .5rem; }
.versions { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; margin: .5rem 0; }
.versions dt { color: var(--muted); }
.versions dd { margin: 0; }
header nav ul, .pager ul { list-style: none; display: flex; flex-wrap: wrap; gap: .3rem 1rem; padding: 0; margin: .5rem 0; }
.rows { list-style: none; padding: 0; margin: 0; }
.row { display: flex; align-items: center; gap: .75rem; min-height: ${ROW_HEIGHT}px; padding: .25rem .5rem; border-bottom: 1px solid var(--line); overflow: hidden; }
.row img { flex: none; width: 32px; height: 32px; object-fit: contain; }
.row .body { min-width: 0; }
.row .name { font-weight: 600; margin-right: .5rem; }
.meta, .label, .help, .more { color: var(--muted); }
.keys a { margin-right: .25rem; }
.unmapped, .missing { color: var(--warn); font-weight: 600; }
.problems li { margin: .3rem 0; }
.problems .where { font-family: ui-monospace, monospace; }
.hint { color: var(--muted); }
label { display: block; font-weight: 600; margin-bottom: .25rem; }
input[type=search], input[type=text] { width: 100%; max-width: 40rem; font: inherit; padding: .45rem .6rem; color: var(--fg); background: var(--bg); border: 2px solid var(--muted); border-radius: 4px; }
#find-answer { margin: .75rem 0; min-height: 2.5rem; display: flex; align-items: center; gap: .75rem; }
#find-answer img { width: 32px; height: 32px; object-fit: contain; }
.viewport { position: relative; height: 70vh; min-height: 20rem; overflow-y: auto; border: 1px solid var(--line); }
.viewport .spacer { width: 1px; }
.viewport .row { position: absolute; left: 0; right: 0; height: ${ROW_HEIGHT}px; }
.viewport .row .body { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.row.chosen { background: var(--mark); }
.row.pending { color: var(--muted); }
#preview-output { white-space: pre-wrap; word-break: break-all; max-height: 30rem; overflow: auto; padding: .75rem; border: 1px solid var(--line); font: 13px/1.4 ui-monospace, monospace; }
[hidden] { display: none !important; }
`;
