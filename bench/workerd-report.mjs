// bench/workerd-report.mjs
// bench/workerd.mjs's results as Markdown: one table per size (warm and cold, the handler beside the floor Worker),
// the `--base-url request` rows, and the targets, each met or not.

/** Cloudflare Free's CPU per request (src/hosts/cloudflare/preset.ts), and the margin the target keeps under it. */
const FREE_CPU_MS = 10;
const MARGIN = 0.5;
const RATIO = 1.5;

const ratio = (a, b) => (b > 0 ? a / b : Infinity);
const x = (r) => `${r.toFixed(2)}×`;

function sizeTable(s) {
  if (s.rows.length === 0)
    return [`### ×${s.size} (${s.content}; \`--base-url request\` only)`, "", ...originLine(s.origin)];
  const lines = [
    `### ×${s.size} (${s.content}; ${s.shards} shards; measured in ${s.seconds} s)`,
    "",
    "| action | body bytes | warm CPU µs/req: handler | floor | static | handler/floor | warm wall ms: handler | floor | handler/floor | cold CPU ms: handler | floor | cold wall ms: handler | floor |",
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
  ];
  for (const r of s.rows) {
    const { handler: h, floor: f, static: st } = r.warm;
    lines.push(
      `| ${r.action} | ${h.bytes} | ${h.cpuUs} | ${f.cpuUs} | ${st.cpuUs} | ${x(ratio(h.cpuUs, f.cpuUs))} | ` +
        `${h.wallMs} | ${f.wallMs} | ${x(ratio(h.wallMs, f.wallMs))} | ${r.cold.handler.cpuMs} | ${r.cold.floor.cpuMs} | ` +
        `${r.cold.handler.wallMs} | ${r.cold.floor.wallMs} |`,
    );
  }
  lines.push("", ...originLine(s.origin));
  return lines;
}

/** The `--base-url request` rows as a paragraph. */
function originLine(o) {
  return [
    `\`--base-url request\`, \`action=icons\` from an origin that is not the base URL's: first request of a fresh ` +
      `process ${o.fresh.cpuMs} ms CPU (${o.fresh.wallMs} ms wall)` +
      (o.freshIsolate === undefined
        ? ""
        : `; of a fresh isolate in a process that has served others ${o.freshIsolate.cpuMs} ms CPU ` +
          `(${o.freshIsolate.wallMs} ms wall)`) +
      `; first from a new origin in a warm isolate ` +
      `${o.newOrigin.cpuMs} ms CPU (${o.newOrigin.wallMs} ms wall); warm ${o.warm.handler.cpuUs} µs/req against ` +
      `the floor's ${o.warm.floor.cpuUs} µs (${x(ratio(o.warm.handler.cpuUs, o.warm.floor.cpuUs))}), wall ` +
      `${o.warm.handler.wallMs} ms against ${o.warm.floor.wallMs} ms.`,
    "",
  ];
}

/** The targets of issue 53 part 1, each with the figure that decides it. */
export function targetsOf(result) {
  const out = [];
  let worstCpu = { r: 0 };
  let worstWall = { r: 0 };
  for (const s of result.sizes)
    for (const row of s.rows) {
      const { handler: h, floor: f } = row.warm;
      const c = ratio(h.cpuUs, f.cpuUs);
      const w = ratio(h.wallMs, f.wallMs);
      if (c > worstCpu.r) worstCpu = { r: c, at: `×${s.size} ${row.action}` };
      if (w > worstWall.r) worstWall = { r: w, at: `×${s.size} ${row.action}` };
    }
  out.push({
    target: `warm CPU within ${RATIO}× of the floor Worker's`,
    worst: `${x(worstCpu.r)} (${worstCpu.at})`,
    met: worstCpu.r <= RATIO,
  });
  out.push({
    target: `warm wall within ${RATIO}× of the floor Worker's`,
    worst: `${x(worstWall.r)} (${worstWall.at})`,
    met: worstWall.r <= RATIO,
  });
  const largest = result.sizes.at(-1);
  if (largest !== undefined) {
    const limit = FREE_CPU_MS * MARGIN;
    const firsts = [...largest.rows, { cold: { handler: { cpuMs: 0 } }, action: "-" }]
      .map((r) => [r.cold.handler.cpuMs, r.action])
      .sort((a, b) => b[0] - a[0])[0];
    out.push({
      target: `×${largest.size} first request ≤ ${limit} ms CPU (Free: ${FREE_CPU_MS})`,
      worst: `${firsts[0]} ms (${firsts[1]})`,
      met: firsts[0] <= limit,
    });
    const o = largest.origin;
    out.push({
      target: `×${largest.size} --base-url request, first request of a fresh isolate ≤ ${limit} ms CPU`,
      worst: `${o.fresh.cpuMs} ms`,
      met: o.fresh.cpuMs <= limit,
    });
    out.push({
      target: `×${largest.size} --base-url request, first from a new origin (warm isolate) ≤ ${limit} ms CPU`,
      worst: `${o.newOrigin.cpuMs} ms`,
      met: o.newOrigin.cpuMs <= limit,
    });
  }
  const origins = result.sizes.map((s) => ({ at: `×${s.size}`, w: s.origin?.warm })).filter((s) => s.w !== undefined);
  if (origins.length > 0) {
    const worst = origins
      .map((s) => ({ at: s.at, r: s.w.handler.cpuUs / s.w.floor.cpuUs }))
      .sort((a, b) => b.r - a.r)[0];
    out.push({
      target: `--base-url request, warm CPU from one origin within ${RATIO}× of the floor Worker's`,
      worst: `${x(worst.r)} (${worst.at})`,
      met: worst.r <= RATIO,
    });
  }
  return out;
}

export function markdownOf(result) {
  const lines = [
    "## The handler on workerd",
    "",
    `${result.date}; ${result.workerd}; ${result.cpus} CPUs; load ${result.loadBefore.join(", ")} before, ${result.loadAfter.join(", ")} after.`,
    `Warm: ${result.rounds} rounds of up to ${result.warm} sequential requests per kind (fewer for large bodies), alternating; cold: median of ${result.cold} fresh processes.`,
    "",
  ];
  for (const s of result.sizes) lines.push(...sizeTable(s));
  lines.push("| target | worst | met |", "|---|---|---|");
  for (const t of targetsOf(result)) lines.push(`| ${t.target} | ${t.worst} | ${t.met ? "yes" : "**no**"} |`);
  return `${lines.join("\n")}\n`;
}
