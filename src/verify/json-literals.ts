// src/verify/json-literals.ts
// JSON as `verify` compares it: JSON.parse's values, except that a whole number written with a fraction or an
// exponent (PHP prints a float of 1e20 as `1.0e+20`) is kept apart from the integer JSON.parse would make of it: a
// typed client (PHP, Python, Go) reads `1.0e+20` as a float and `100000000000000000000` as an integer.

/** A whole number written as a float (`1.0`, `1.0e+20`): its value, and its text as written. */
export class FloatLiteral {
  constructor(
    readonly value: number,
    readonly text: string,
  ) {}

  toJSON(): number {
    return this.value;
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const isFloatText = (text: string): boolean => /[.eE]/.test(text);

/** Whether `text` holds a whole number written as a float outside its strings (most JSON texts hold none). */
function hasWholeFloat(text: string): boolean {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      NUMBER.lastIndex = i;
      const token = NUMBER.exec(text)?.[0] ?? text[i]!;
      if (isFloatText(token) && Number.isInteger(Number(token))) return true;
      i += token.length - 1;
    }
  }
  return false;
}

/**
 * JSON.parse, except that a whole number written as a float is a FloatLiteral. Throws as JSON.parse does on a text
 * that is not JSON.
 */
export function parseJsonLiterals(text: string): unknown {
  const value = JSON.parse(text) as unknown;
  return hasWholeFloat(text) ? new Reader(text).value() : value;
}

/** A reader of a text JSON.parse has accepted: it only tells the tokens apart. */
class Reader {
  private at = 0;
  constructor(private readonly text: string) {}

  private space(): void {
    while (/\s/.test(this.text[this.at] ?? "")) this.at++;
  }

  value(): unknown {
    this.space();
    const c = this.text[this.at]!;
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    if (c === '"') return this.string();
    for (const [word, v] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return v;
      }
    }
    NUMBER.lastIndex = this.at;
    const token = NUMBER.exec(this.text)![0];
    this.at += token.length;
    const n = Number(token);
    return isFloatText(token) && Number.isInteger(n) ? new FloatLiteral(n, token) : n;
  }

  private string(): string {
    let end = this.at + 1;
    while (this.text[end] !== '"') end += this.text[end] === "\\" ? 2 : 1;
    const s = JSON.parse(this.text.slice(this.at, end + 1)) as string;
    this.at = end + 1;
    return s;
  }

  private array(): unknown[] {
    const out: unknown[] = [];
    this.at++;
    this.space();
    if (this.text[this.at] === "]") {
      this.at++;
      return out;
    }
    for (;;) {
      out.push(this.value());
      this.space();
      if (this.text[this.at++] === "]") return out;
    }
  }

  private object(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.at++;
    this.space();
    if (this.text[this.at] === "}") {
      this.at++;
      return out;
    }
    for (;;) {
      this.space();
      const key = this.string();
      this.space();
      this.at++; // ":"
      // "__proto__" is a key like any other in JSON: defined, as JSON.parse does, not assigned.
      Object.defineProperty(out, key, { value: this.value(), enumerable: true, writable: true, configurable: true });
      this.space();
      if (this.text[this.at++] === "}") return out;
    }
  }
}
