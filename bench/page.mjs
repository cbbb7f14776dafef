// bench/page.mjs
// docs/benchmark.md: where the project stands, written from bench/benchmark.template.md and one run's results file
// (its targets, its machine, its runs). Parts a run skipped (--no-builds, --no-preview, --no-nginx) are taken from the
// latest results file in bench/results/ that measured them, and the page names it.
// I/O: reads the template and results files, writes the page.

import { readdirSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { REPO, RESULTS, TEMPLATE } from "./paths.mjs";
import { buildTargets, hostTargets, hugoTargets, nginxTargets, previewTargets, workerdTargets } from "./targets.mjs";

/** The parts of a run the page shows, each with whether a results file measured it. */
const PARTS = {
  builds: (r) => Array.isArray(r.builds) && (r.builds.length > 0 || (r.failures?.length ?? 0) > 0),
  preview: (r) => r.preview !== undefined,
  nginx: (r) => r.nginx?.rows !== undefined,
  hugo: (r) => r.hugo?.rows !== undefined,
  workerd: (r) => typeof r.workerd === "string" && Array.isArray(r.sizes),
  hosts: (r) => Array.isArray(r.scales) && r.scales[0]?.uploads !== undefined,
};
const PART_TARGETS = {
  builds: buildTargets,
  preview: previewTargets,
  nginx: nginxTargets,
  hugo: hugoTargets,
  workerd: (r) => (PARTS.workerd(r) ? workerdTargets(r) : []),
  hosts: (r) => (PARTS.hosts(r) ? hostTargets(r) : []),
};
const PART_NAMES = {
  builds: "build",
  preview: "preview",
  nginx: "nginx",
  hugo: "Hugo",
  workerd: "workerd",
  hosts: "hosts-at-scale",
};

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));
const day = (iso) => iso.slice(0, 10);
const when = (iso) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

/** Writes the page `page` from the results file `resultsFile` (a .json a run wrote, its report beside it). */
export async function writePage(resultsFile, page) {
  const result = readJson(resultsFile);
  const run = { file: resultsFile, result };
  const sources = {};
  for (const part of Object.keys(PARTS))
    sources[part] = PARTS[part](result) ? run : (latestWith(part, resultsFile) ?? run);
  const link = (file, ext = ".md") => {
    const base = file.replace(/\.json$/, "");
    return `[${path.basename(base + ext)}](${path.relative(path.dirname(page), base + ext)})`;
  };
  const values = {
    generated:
      `<!-- ${path.relative(REPO, page)}: written by bench/page.mjs (\`npm run bench\`, or \`--page-from\`) from` +
      ` bench/benchmark.template.md and ${path.basename(resultsFile)}; edit the template, not this page. -->`,
    run: runLine(run, sources, link),
    targets: targetTable(run, sources),
    summary: summaryLine(run, sources),
    machine: machineLine(result),
    nodeStart: nodeStartLine(result),
    runs: (sources.builds.result.builds ?? []).map((b) => `${b.name} ${b.runs}`).join(", ") || "none",
    results: path.relative(path.dirname(page), RESULTS),
  };
  await writeFile(page, fill(readFileSync(TEMPLATE, "utf8"), values));
}

/** The latest results file in bench/results/ (by its run's date) that measured `part`. */
function latestWith(part, exclude) {
  let best;
  for (const name of readdirSync(RESULTS).filter((n) => n.endsWith(".json"))) {
    const file = path.join(RESULTS, name);
    if (path.resolve(file) === path.resolve(exclude)) continue;
    let result;
    try {
      result = readJson(file);
    } catch {
      continue;
    }
    if (typeof result?.date !== "string" || !PARTS[part](result)) continue;
    if (best === undefined || result.date > best.result.date) best = { file, result };
  }
  return best;
}

/** Which run the page shows, and where the parts it skipped come from. */
function runLine(run, sources, link) {
  const { result } = run;
  const lines = [
    `The run shown: ${link(run.file)} (${when(result.date)}; every run's time in ${link(run.file, ".json")}),` +
      ` \`${result.command}\`.`,
  ];
  const borrowed = new Map();
  for (const [part, source] of Object.entries(sources)) {
    if (source === run) continue;
    const parts = borrowed.get(source.file)?.parts ?? [];
    borrowed.set(source.file, { source, parts: [...parts, PART_NAMES[part]] });
  }
  for (const { source, parts } of borrowed.values()) {
    lines.push(
      `The ${parts.join(" and ")} rows are from ${link(source.file)} (${when(source.result.date)}), the latest run` +
        " that measured them.",
    );
  }
  return lines.join(" ");
}

/** Every target row, each from the run that measured its part (named where that is not the run shown). */
function targetRows(run, sources) {
  return Object.entries(sources).flatMap(([part, source]) =>
    PART_TARGETS[part](source.result).map((row) =>
      source === run ? row : { ...row, measured: `${row.measured} (${day(source.result.date)})` },
    ),
  );
}

function targetTable(run, sources) {
  const met = (m) => (m === null ? "not measured" : m ? "yes" : "**no**");
  return [
    "| target | measured | met |",
    "|---|---|---|",
    ...targetRows(run, sources).map((row) => `| ${row.target} | ${row.measured} | ${met(row.met)} |`),
  ].join("\n");
}

function summaryLine(run, sources) {
  const rows = targetRows(run, sources);
  const count = (m) => rows.filter((r) => r.met === m).length;
  const unmeasured = count(null);
  return (
    `Met: ${count(true)} of ${rows.length}; not met: ${count(false)}` +
    (unmeasured > 0 ? `; not measured: ${unmeasured}.` : ".")
  );
}

function machineLine(r) {
  return (
    `${r.cpus} × ${r.cpuModel}, ${r.memGb} GiB of memory, the disk ${r.disk}, Node ${r.node}; load average` +
    ` ${r.loadBefore.join(", ")} before the run${r.loadAfter ? ` and ${r.loadAfter.join(", ")} after it` : ""}`
  );
}

function nodeStartLine(r) {
  const start = r.nodeStart;
  if (start === undefined) return "not measured in this run";
  return (
    `${start.ms} ms` +
    (start.extraCaCerts === undefined
      ? ""
      : ` (${start.withCertsMs} ms with the NODE_EXTRA_CA_CERTS this machine sets, which every command here runs without)`)
  );
}

/** The template with each `{{name}}` replaced, and its own comments (`<!-- template: … -->` lines) left out. */
function fill(template, values) {
  return template
    .split("\n")
    .filter((line) => !line.startsWith("<!-- template:"))
    .join("\n")
    .replace(/\{\{(\w+)\}\}/g, (_, name) => {
      if (!(name in values)) throw new Error(`${TEMPLATE}: no value for {{${name}}}`);
      return values[name];
    });
}
