// bench/targets.mjs
// The project's performance targets, each as a row: the target, what a run measured, and whether it is met (null:
// not measured). The one list of targets: the run's report and docs/benchmark.md both show these rows.

import { targetsOf as workerdTargetsOf } from "./workerd-report.mjs";

/** Every target row of a run's results. */
export function targets(result) {
  return [...buildTargets(result), ...previewTargets(result), ...nginxTargets(result), ...hugoTargets(result)];
}

/** The rows of the builds table: full builds against their floor and each other, then each row's rebuilds. */
export function buildTargets(result) {
  return [...fullBuildTargets(result), ...result.builds.flatMap(rebuildTargets)];
}

function fullBuildTargets(result) {
  const rows = [];
  const real = result.builds.filter((b) => b.name.startsWith("indexer-"));
  for (const b of real) {
    rows.push({ target: `${b.name}: full build / floor ≤ 1.3`, measured: `${b.ratio}`, met: b.ratio <= 1.3 });
  }
  const x100 = result.builds.find((b) => b.name === "synthetic-x100");
  const x100Failed = result.failures?.find((f) => f.name === "synthetic-x100");
  if (x100Failed)
    rows.push({
      target: "×100: full build ≤ 1.3× the floor, peak RSS ≤ 300 MB, ×10 → ×100 ≤ 11×",
      measured: `build failed: ${x100Failed.error}`,
      met: false,
    });
  if (x100) {
    rows.push({
      target: "×100 (every default host): full build ≤ 1.3× the floor",
      measured: `${x100.buildS} s, floor ${x100.floorS} s: ${x100.ratio}×`,
      met: x100.ratio <= 1.3,
    });
    rows.push({ target: "×100: peak RSS ≤ 300 MB", measured: `${x100.peakRssMb} MB`, met: x100.peakRssMb <= 300 });
  }
  if (result.growth)
    rows.push({
      target: "×10 → ×100 costs ≤ 11×",
      measured: `${result.growth.ratio}×`,
      met: result.growth.ratio <= 11,
    });
  return rows;
}

/** One row's rebuild targets: no-op, one mapping (command and `dev`), one icon changed, one icon added. */
function rebuildTargets(b) {
  const rows = [];
  rows.push({
    target: `${b.name}: no-op rebuild ≤ 25% of full or < 100 ms, rewrites nothing`,
    measured: `${Math.round(b.noopOfFull * 100)}% (${b.noopS} s), ${b.noopRewritten} rewritten`,
    met: (b.noopOfFull <= 0.25 || b.noopS < 0.1) && b.noopRewritten === 0,
  });
  const mappingTarget = b.name.endsWith("x100") ? 2 : b.name.startsWith("indexer") ? 0.3 : undefined;
  const devTarget = b.name.endsWith("x100") ? 2000 : b.name.startsWith("indexer") ? 50 : undefined;
  if (mappingTarget !== undefined) {
    rows.push({
      target: `${b.name}: edit one mapping, rebuild from the command ≤ ${mappingTarget} s, only affected files rewritten`,
      measured: `${b.oneMappingS} s; ${b.oneMappingRewritten} rewritten, ${b.oneMappingChangedBytes} changed, ${b.oneMappingRewrittenUnchanged} unchanged rewritten`,
      met: b.oneMappingS <= mappingTarget && b.oneMappingRewrittenUnchanged === 0,
    });
  }
  if (devTarget !== undefined) {
    rows.push({
      target: `${b.name}: edit one mapping, rebuild in dev ≤ ${devTarget} ms`,
      measured: `${b.devMappingMs} ms (median of ${b.devMappingRunsMs.length})`,
      met: b.devMappingMs <= devTarget,
    });
  }
  return [...rows, ...iconTargets(b)];
}

function iconTargets(b) {
  const rows = [];
  if (b.name.endsWith("x100"))
    rows.push({
      target: `${b.name}: one icon changed (a new picture), rebuild ≤ 2 s`,
      measured: `${b.oneIconS} s`,
      met: b.oneIconS <= 2,
    });
  rows.push({
    target: `${b.name}: one-icon rebuild rewrites only changed files`,
    measured: `${b.oneIconRewritten} rewritten, ${b.oneIconChangedBytes} changed, ${b.oneIconRewrittenUnchanged} unchanged rewritten`,
    met: b.oneIconRewrittenUnchanged === 0,
  });
  if (b.name.endsWith("x100"))
    rows.push({
      target: `${b.name}: add one icon, rebuild ≤ 2 s`,
      measured: `${b.addIconS} s`,
      met: b.addIconS <= 2,
    });
  rows.push({
    target: `${b.name}: add-icon rebuild rewrites only changed files`,
    measured: `${b.addIconRewritten} rewritten, ${b.addIconChangedBytes} changed, ${b.addIconRewrittenUnchanged} unchanged rewritten`,
    met: b.addIconRewrittenUnchanged === 0,
  });
  return rows;
}

/** The preview's row, when the run measured it. */
export function previewTargets(result) {
  if (!result.preview) return [];
  return [
    {
      target: "preview ≥ 50% of serve-handler by path (req/s)",
      measured: `${Math.round(result.preview.ratio * 100)}%`,
      met: result.preview.ratio >= 0.5,
    },
  ];
}

/** nginx's row: measured, or why not. */
export function nginxTargets(result) {
  const target = "nginx with emitted config ≥ 90% of nginx by path";
  return [
    result.nginx?.rows
      ? { target, measured: `${Math.round(result.nginx.ratio * 100)}%`, met: result.nginx.ratio >= 0.9 }
      : { target, measured: `skipped: ${result.nginx?.skipped ?? "not run"}`, met: null },
  ];
}

/** The rows against Hugo (bench/hugo.mjs): ours / Hugo, the median of alternating pairs; why not, when not run. */
export function hugoTargets(result) {
  const hugo = result.hugo;
  if (hugo === undefined) return [];
  if (hugo.rows === undefined)
    return [{ target: "full build / Hugo's (bench/hugo.mjs)", measured: `skipped: ${hugo.skipped}`, met: null }];
  const rows = hugo.rows.map((r) => ({
    target: `${r.label}: ours / Hugo ≤ ${r.target}`,
    measured:
      r.skipped !== undefined
        ? `skipped: ${r.skipped}`
        : `${r.ratio} (${r.oursS} s / ${r.hugoS} s, median of ${r.pairs} pairs)`,
    met: r.skipped !== undefined ? null : r.met,
  }));
  if (hugo.x100 !== undefined) {
    const x = hugo.x100;
    rows.push({
      target: "×100 (default hosts): full build ≤ 1.3× `cp -a` of what it wrote",
      measured: `${x.buildS} s / ${x.copyS} s: ${x.ratio}×`,
      met: x.ratio <= 1.3,
    });
    rows.push({
      target: "×100 (default hosts): peak RSS ≤ 300 MB",
      measured: `${x.peakRssMb} MB`,
      met: x.peakRssMb <= 300,
    });
  }
  return rows;
}

/** The handler on workerd beside the floor Worker (bench/workerd.mjs's results). */
export function workerdTargets(result) {
  return workerdTargetsOf(result).map((t) => ({ target: `workerd: ${t.target}`, measured: t.worst, met: t.met }));
}

/** Apache at ×100 against ×1, and each default host's upload against its plan's file limits (bench/host-uploads.mjs). */
export function hostTargets(result) {
  const rows = [];
  if (result.target !== undefined) {
    rows.push({
      target: "Apache ×100: median request time ≤ 1.5× real size's (a plain file, /api.php)",
      measured: result.target.ratios.map((r) => `${r}×`).join(", "),
      met: result.target.met,
    });
  }
  const largest = result.scales.at(-1);
  for (const u of largest.uploads.filter((x) => x.within !== undefined)) {
    rows.push({
      target: `×${largest.scale}: the ${u.host} upload within its plans' file limits`,
      measured: `${u.files} files (Free ${u.free}, Paid ${u.paid})`,
      met: u.within.free && u.within.paid,
    });
  }
  return rows;
}
