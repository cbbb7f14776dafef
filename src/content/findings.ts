// src/content/findings.ts
// The list of findings a content check makes (Out), and how a finding quotes a value.

import type { Diagnostic } from "../errors.js";
import type { ParsedJson, Position } from "./parse-json.js";

export const short = (s: string): string => JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);

export const fmt = (p: Position | undefined): string => (p === undefined ? "" : ` (line ${p.line}:${p.column})`);

/** The findings of a check, each placed at its pointer's line and column in the parsed file. */
export class Out {
  readonly list: Diagnostic[] = [];
  at(
    parsed: ParsedJson,
    severity: Diagnostic["severity"],
    code: string,
    pointer: string,
    message: string,
    hint?: string,
  ): void {
    this.list.push({
      severity,
      code,
      file: parsed.file,
      pointer,
      ...parsed.positionOf(pointer),
      message,
      ...(hint === undefined ? {} : { hint }),
    });
  }
  file(file: string, severity: Diagnostic["severity"], code: string, message: string, hint?: string): void {
    this.list.push({ severity, code, file, message, ...(hint === undefined ? {} : { hint }) });
  }
}

export const visible = (s: string): string => JSON.stringify(s);
