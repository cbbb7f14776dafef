// src/cli/output.ts
// How the CLI talks: two line sinks (stdout, stderr), colours that honour NO_COLOR / FORCE_COLOR / non-TTY output,
// human-readable sizes, warnings summarised by code, and a progress line for builds that take more than a second.

import util from "node:util";
import { countNoun, formatDiagnostic, type Diagnostic } from "../errors.js";

export type Style = "red" | "yellow" | "green" | "cyan" | "dim" | "bold";

/** Where the CLI writes. `color` and `tty` are decided once per stream (tests pass plain sinks: no colour, no TTY). */
export interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Colours for stdout / stderr text; identity when colours are off. */
  color?: { out: (style: Style, text: string) => string; err: (style: Style, text: string) => string };
  /** stderr is a terminal: a progress line may be drawn (and erased) there. */
  progress?: { draw: (text: string) => void; clear: () => void };
}

/**
 * Colours on: FORCE_COLOR set to anything but "", "0" or "false"; else off when NO_COLOR is set (any value but ""), when
 * the stream is not a terminal, or when the terminal has no colours. (https://no-color.org, https://force-color.org)
 */
export function colorEnabled(
  stream: { isTTY?: boolean; hasColors?: () => boolean },
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  const force = env.FORCE_COLOR;
  if (force === "0" || force === "false") return false; // as Node itself reads it
  if (force !== undefined && force !== "") return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (stream.isTTY !== true) return false;
  return typeof stream.hasColors === "function" ? stream.hasColors() : true;
}

const plain = (_style: Style, text: string): string => text;

function styler(enabled: boolean): (style: Style, text: string) => string {
  // util.styleText exists from Node 20.12; older Node 20 prints without colours.
  if (!enabled || typeof util.styleText !== "function") return plain;
  return (style, text) => util.styleText(style, text, { validateStream: false });
}

export function processIo(): Io {
  // A reader that goes away (`| head`) is no error worth a stack trace: later lines for it are dropped, and the
  // command finishes its work (a build is not cut off half-way).
  const gone = new Set<NodeJS.WriteStream>();
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
      gone.add(stream);
    });
  }
  const write = (stream: NodeJS.WriteStream, line: string): void => {
    if (!gone.has(stream)) stream.write(`${line}\n`);
  };
  const progressOn = process.stderr.isTTY === true;
  return {
    out: (line) => write(process.stdout, line),
    err: (line) => write(process.stderr, line),
    color: { out: styler(colorEnabled(process.stdout)), err: styler(colorEnabled(process.stderr)) },
    ...(progressOn
      ? {
          progress: {
            draw: (text: string) => process.stderr.write(`\r\x1b[2K${text}`),
            clear: () => process.stderr.write("\r\x1b[2K"),
          },
        }
      : {}),
  };
}

export const colorOut = (io: Io, style: Style, text: string): string => (io.color ? io.color.out(style, text) : text);
export const colorErr = (io: Io, style: Style, text: string): string => (io.color ? io.color.err(style, text) : text);

/** 1234567 → "1.2 MB" (decimal units, as file managers and `du --si` show them). */
export function humanBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ["kB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = "B";
  for (const u of units) {
    if (value < 999.5) break; // 999,999 bytes is "1.0 MB", not "1000 kB"
    value /= 1000;
    unit = u;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${unit}`;
}

/** 850 → "850 ms", 12345 → "12.3 s". */
export function humanMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** How many lines of one warning code are printed before the rest are summarised (unless --verbose). */
export const WARNINGS_PER_CODE = 3;

/**
 * The diagnostics as lines for stderr: errors always in full; warnings in full under --verbose or when there are
 * few, otherwise the first few of each code and one line with how many more there are.
 */
export function diagnosticLines(io: Io, diagnostics: readonly Diagnostic[], verbose: boolean): string[] {
  const lines: string[] = [];
  const paint = (d: Diagnostic): string => {
    const text = formatDiagnostic(d);
    const word = d.severity === "error" ? "error" : "warning";
    return text.replace(`: ${word}: `, `: ${colorErr(io, d.severity === "error" ? "red" : "yellow", word)}: `);
  };
  const warnings = diagnostics.filter((d) => d.severity === "warning");
  for (const d of diagnostics) if (d.severity === "error") lines.push(paint(d));
  if (verbose || warnings.length <= 10) {
    for (const d of warnings) lines.push(paint(d));
    return lines;
  }
  const byCode = new Map<string, Diagnostic[]>();
  for (const d of warnings) byCode.set(d.code, [...(byCode.get(d.code) ?? []), d]);
  for (const [code, list] of byCode) {
    for (const d of list.slice(0, WARNINGS_PER_CODE)) lines.push(paint(d));
    if (list.length > WARNINGS_PER_CODE) {
      lines.push(
        colorErr(
          io,
          "dim",
          `  … and ${countNoun(list.length - WARNINGS_PER_CODE, "more warning")} [${code}] (--verbose lists every one)`,
        ),
      );
    }
  }
  const summary = [...byCode].map(([code, list]) => `${code} ${list.length}`).join(", ");
  lines.push(`${countNoun(warnings.length, "warning")}: ${summary}.`);
  return lines;
}

/**
 * Starts a progress line on a terminal after `delayMs` (a build that finishes sooner prints nothing): a spinner and
 * the seconds elapsed. Returns the function that stops and erases it.
 */
export function startProgress(io: Io, label: string, delayMs = 1000): () => void {
  const progress = io.progress;
  if (progress === undefined) return () => {};
  const started = performance.now();
  const frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
  let frame = 0;
  let drawn = false;
  let ticker: NodeJS.Timeout | undefined;
  const draw = (): void => {
    drawn = true;
    progress.draw(`${frames[frame++ % frames.length]} ${label} ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };
  const delay = setTimeout(() => {
    draw();
    ticker = setInterval(draw, 100);
    ticker.unref();
  }, delayMs);
  delay.unref();
  return () => {
    clearTimeout(delay);
    if (ticker !== undefined) clearInterval(ticker);
    if (drawn) progress.clear();
  };
}
