// src/verify/report.ts
// The report as text: a table per action (pass/total, precomputed and beyond), the first --show differences with
// URL, expected and received, and one closing line.

import type { VerifyReport } from "./run.js";

const cell = (pass: number, total: number, fallback = 0): string =>
  total === 0 ? "-" : `${pass}/${total}${fallback > 0 ? ` (+${fallback} fallback${fallback === 1 ? "" : "s"})` : ""}`;

export function reportLines(report: VerifyReport, show: number): string[] {
  const lines: string[] = [];
  const what = report.reference ? "the PHP service" : "the site";
  lines.push(
    `Checked ${report.target} (${what}) against ${report.dir}/: ${report.checked} of ${report.requests} requests ` +
      `in ${(report.ms / 1000).toFixed(1)} s${report.sample ? ` (sample of ${report.sample.size}, seed ${report.sample.seed})` : ""}.`,
  );
  const names = Object.keys(report.groups).sort();
  const width = Math.max(8, ...names.map((n) => n.length)) + 2;
  lines.push(`  ${"".padEnd(width)}${"precomputed".padEnd(16)}beyond`);
  for (const name of names) {
    const g = report.groups[name]!;
    lines.push(
      `  ${name.padEnd(width)}${cell(g.precomputed.pass, g.precomputed.total).padEnd(16)}${cell(g.beyond.pass, g.beyond.total, g.beyond.fallback)}`,
    );
  }
  if (report.beyondSkipped !== undefined)
    lines.push(`Beyond the precomputed domain: not asked, ${report.beyondSkipped}.`);
  if (report.fallbacks.length > 0) {
    const byId = new Map<string, number>();
    for (const f of report.fallbacks) byId.set(f.fallback, (byId.get(f.fallback) ?? 0) + 1);
    lines.push(`Documented static fallbacks: ${[...byId].map(([id, n]) => `${id} ${n}`).join(", ")} (docs/verify.md).`);
  }
  // A server that does not route /api.php: its one 404 shown once, the other differences (plain files) as usual.
  const api =
    report.unrouted === undefined ? [] : report.differences.filter((d) => new URL(d.url).pathname === "/api.php");
  const listed =
    report.unrouted === undefined ? report.differences : report.differences.filter((d) => !api.includes(d));
  const shown = [...api.slice(0, 1), ...listed].slice(0, show);
  if (shown.length > 0) {
    const more =
      api.length > 0
        ? ` (every one of the ${api.length} requests to /api.php got the 404 shown first; --json for all)`
        : listed.length > shown.length
          ? ` (first ${shown.length} of ${report.differences.length}; --show N, --json for all)`
          : "";
    lines.push(`Differences${more}:`);
    for (const d of shown) {
      lines.push(`  ${d.method} ${d.url}${d.scope === "beyond" ? "  (beyond the precomputed domain)" : ""}`);
      for (const line of d.differences) lines.push(`    ${line}`);
    }
  }
  const precomputed = report.differences.filter((d) => d.scope === "precomputed").length;
  const beyond = report.differences.length - precomputed;
  if (report.stopped)
    lines.push(`Stopped: ${report.checked} of ${report.requests} requests checked; the counts above are partial.`);
  else if (report.unrouted !== undefined) {
    lines.push(`FAILED: ${report.unrouted}.`);
    if (listed.length > 0)
      lines.push(`Besides /api.php, ${listed.length} request${listed.length === 1 ? "" : "s"} differ.`);
  } else if (report.exitCode === 0) {
    lines.push(
      `OK: every precomputed request matches${beyond > 0 ? `; ${beyond} beyond the domain differ (--strict fails on them)` : ""}.`,
    );
  } else {
    lines.push(
      `FAILED: ${precomputed} precomputed request${precomputed === 1 ? "" : "s"} differ${precomputed === 1 ? "s" : ""}` +
        `${beyond > 0 ? `, ${beyond} beyond the domain` : ""}.`,
    );
  }
  return lines;
}
