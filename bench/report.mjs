// bench/report.mjs
// A run's report (bench/results/<name>.md): the machine and method, the builds table, where the time goes, the
// preview and nginx rows, and the targets.

import { round } from "./common.mjs";
import { SETTLE_MAX_S, SETTLED_S } from "./disk.mjs";
import { SOURCE_DATE_EPOCH } from "./timed-run.mjs";

/** The report of `result` (its figures written as `resultsName`.json). */
export function markdown(result, resultsName) {
  const L = [
    ...headerLines(result),
    ...buildLines(result, resultsName),
    ...phaseLines(result),
    ...growthLines(result),
    ...previewLines(result),
    ...nginxLines(result),
    ...targetLines(result.targets),
  ];
  return L.join("\n");
}

function headerLines(result) {
  const L = [];
  L.push(`# Benchmark results`, "");
  L.push(
    `${result.date} · Node ${result.node} · ${result.cpus} × ${result.cpuModel} · ${result.memGb} GiB · load average before: ${result.loadBefore.join(", ")}`,
    "",
  );
  L.push(
    `Command: \`${result.command}\`. Builds run the CLI as a whole process (\`node bin/build-index-site.js build\`,` +
      ` default hosts: netlify, apache, nginx, vercel, cloudflare), with SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH}, each into a` +
      ` fresh root on ${result.disk} (dist/ and the host folders beside it: .netlify/v1, .vercel/output). The floor is` +
      " the faster of `bench/floor.mjs`, a bare Node process that copies every file the build wrote (readFileSync +" +
      " writeFileSync per file), and `cp -a` of the same root (hard links kept), measured alternately with the builds in" +
      " the same run. Nothing is deleted until a row is measured" +
      (result.droppedFloors?.length
        ? `, but the floors' copies of the rows the disk could not hold until then (${result.droppedFloors.join(", ")}): removed untimed, then synced, as soon as they are timed,` +
          ` and the disk let settle (no sector written or discarded for ${SETTLED_S} s, at most ${SETTLE_MAX_S} s: it waited` +
          ` ${result.settleWaitsS?.length ? result.settleWaitsS.map((w) => `${w} s`).join(", ") : "no time"}) before the next build.`
        : " (the disk held every run of every row).") +
      (result.rowSettleWaits?.length
        ? ` Each row starts once the disk has settled (no sector written or discarded for ${SETTLED_S} s, at most ${SETTLE_MAX_S} s:` +
          ` ${result.rowSettleWaits.map((w) => `${w.s} s before ${w.row}`).join(", ")}).`
        : ""),
    "",
  );
  const start = result.nodeStart;
  if (start !== undefined) {
    L.push(
      `Node's own start (\`node -e 0\`, median of 10): ${start.ms} ms.` +
        (start.extraCaCerts === undefined
          ? ""
          : ` This machine sets NODE_EXTRA_CA_CERTS=${start.extraCaCerts}, which Node reads and parses at every start: ${start.withCertsMs} ms` +
            " with it. Every command here runs without it (none opens a TLS connection): a machine that sets it adds the" +
            " difference to every figure below that starts a process."),
      "",
    );
  }
  return L;
}

function buildLines(result, resultsName) {
  const L = [];
  L.push("## Builds", "");
  L.push(
    "| content | answers | files (dist/) | MB written | full build (median) | peak RSS | floor (median) | **build / floor** | no-op rebuild | no-op / full | no-op files rewritten | one-icon rebuild | one-icon files rewritten / changed | add-icon rebuild | add-icon files rewritten / changed | one-mapping rebuild (median) | one-mapping files rewritten / changed | one-mapping rebuild in dev (median of the first runs; of as many after them) | the next answer after a dev rebuild (median) | dev ready for edits after start |",
  );
  L.push(`|---|${"---:|".repeat(19)}`);
  for (const b of result.builds) {
    L.push(
      `| ${b.name} | ${b.answers} | ${b.files} (${b.distFiles}) | ${round(b.bytes / 1e6, 1)} | ${b.buildS} s | ${b.peakRssMb} MB | ${b.floorS} s | **${b.ratio}** | ${b.noopS} s | ${Math.round(b.noopOfFull * 100)}% | ${b.noopRewritten} | ${b.oneIconS} s | ${b.oneIconRewritten} / ${b.oneIconChangedBytes} | ${b.addIconS} s | ${b.addIconRewritten} / ${b.addIconChangedBytes} | ${b.oneMappingS} s | ${b.oneMappingRewritten} / ${b.oneMappingChangedBytes} | ${b.devMappingMs} ms; ${b.devLaterMs ?? "–"} ms | ${b.devAnswerMs ?? "–"} ms | ${b.devReadyS ?? "–"} s |`,
    );
  }
  for (const f of result.failures ?? [])
    L.push(`| ${f.name} | **build failed**: ${f.error.replace(/\|/g, "\\|")} |||||||||||| |`);
  L.push(
    "",
    `Runs per size: ${result.builds.map((b) => `${b.name} ${b.runs}`).join(", ")} (every run's time is in ${resultsName}.json).`,
  );
  if (result.builds.some((b) => b.overS !== undefined)) {
    L.push(
      "",
      `A build in full over the earlier one (other hosts: the default set but cloudflare; one run): ${result.builds
        .filter((b) => b.overS !== undefined)
        .map((b) => `${b.name} ${b.overS} s, peak RSS ${b.overRssMb} MB (fresh: ${b.peakRssMb} MB)`)
        .join("; ")}.`,
    );
  }
  return L;
}

function phaseLines(result) {
  const L = [];
  const phaseNames = [...new Set(result.builds.flatMap((b) => b.phases.map((p) => p.phase)))];
  if (phaseNames.length) {
    L.push(
      "",
      "### Where the time goes",
      "",
      "One more build per row with BUILD_INDEX_SITE_TIMINGS=1: ms per phase, in order, and the process's RSS / V8 heap in" +
        " use (MiB) at the phase's end. \"load modules\" is the import of the compile pipeline; node's own start-up is in the" +
        " wall time only.",
      "",
    );
    L.push(
      `| phase | ${result.builds.map((b) => b.name).join(" | ")} |`,
      `|---|${result.builds.map(() => "---:").join("|")}|`,
    );
    for (const name of phaseNames) {
      L.push(
        `| ${name} | ${result.builds
          .map((b) => {
            const p = b.phases.find((x) => x.phase === name);
            return p === undefined ? "" : `${p.ms} (${p.rssMb} / ${p.heapMb})`;
          })
          .join(" | ")} |`,
      );
    }
    L.push(
      `| (wall, peak RSS) | ${result.builds.map((b) => `${b.phasesRun.s} s, ${b.phasesRun.rssMb} MB`).join(" | ")} |`,
    );
  }
  return L;
}

function growthLines(result) {
  const L = [];
  if (result.growth)
    L.push(
      "",
      `Growth: ×10 → ×100 costs ${result.growth.ratio}× as much time (${result.growth.from} s → ${result.growth.to} s).`,
    );
  return L;
}

function previewLines(result) {
  const L = [];
  L.push("", "## Preview throughput", "");
  if (result.preview) {
    const p = result.preview;
    L.push(
      `Site: ${p.site}; ${p.mixSize} distinct requests cycled by autocannon, ${p.connections} connections, ${p.seconds} s, 127.0.0.1.`,
      "",
    );
    L.push("| server | req/s | p99 latency | requests | non-2xx |", "|---|---:|---:|---:|---:|");
    for (const r of p.rows) L.push(`| ${r.server} | ${r.rps} | ${r.p99Ms} ms | ${r.requests} | ${r.non2xx} |`);
    L.push("", `Preview / serve-handler by path: **${p.ratio}**.`);
  } else L.push("(skipped)");
  return L;
}

function nginxLines(result) {
  const L = [];
  L.push("", "## nginx", "");
  if (result.nginx?.rows) {
    const n = result.nginx;
    L.push(`${n.note}`, "");
    L.push("| server | req/s | p99 latency | requests | non-2xx |", "|---|---:|---:|---:|---:|");
    for (const r of n.rows) L.push(`| ${r.server} | ${r.rps} | ${r.p99Ms} ms | ${r.requests} | ${r.non2xx} |`);
    L.push("", `nginx with the emitted config / nginx by path: **${n.ratio}**.`);
  } else L.push(`Skipped: ${result.nginx?.skipped ?? "not run"}`);
  return L;
}

function targetLines(t) {
  const L = [];
  L.push("", "## Targets", "", "| target | measured | met |", "|---|---|---|");
  for (const row of t)
    L.push(`| ${row.target} | ${row.measured} | ${row.met === null ? "n/a" : row.met ? "yes" : "**no**"} |`);
  L.push("");
  return L;
}
