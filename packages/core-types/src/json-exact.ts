/**
 * Exact JSON numbers. `JSON.parse` reads every number as a double, so tool-call arguments such as
 * `12345678901234567890`, `9007199254740993`, `1.0000000000000001` or `1e400` change value, and
 * `1.0`, `-0`, `1E2` or `0.0000001` change text (`1`, `0`, `100`, `1e-7`; a Python client reads
 * `1.0` as a float and `1` as an int), when a format must carry them as an object (Anthropic
 * `input`, Gemini `args`) rather than as text. A number that `JSON.stringify` would not write back
 * as the same text is read as a `JsonNumber` keeping its text, and `stringifyJsonExact` writes that
 * text back: the arguments reach the other side byte for byte.
 */

/** A JSON number kept as written, because the nearest double has another value. */
export class JsonNumber {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  /** Plain `JSON.stringify` writes the nearest double (`null` past its range), as it always did. */
  toJSON(): number | null {
    const value = Number(this.text);
    return Number.isFinite(value) ? value : null;
  }
}

// The number texts `JSON.stringify` may not write back as they are: at least 16 significant digits
// (points allowed between them), an exponent, a fraction ending in 0 (`1.0`), `-0`, or six zeros
// after `0.` (`0.0000001` is written `1e-7`). A match inside a string only costs the exact reader.
const CHANGED = String.raw`-?\d(?:(?:\.?\d){15}|\d*(?:\.\d+)?[eE])|-?\d+\.\d*0(?!\d)|-0(?![.\d])|-?0\.0{6}`;
const MAYBE_INEXACT = /\d(?:\.?\d){15}|\d[eE][+-]?\d|\.\d*0(?!\d)|-0|0\.0{6}/;
// The same where a number can start (after `:`, `,`, `[` or white space, or the text's start):
// base64 (an inline image) is full of digit-e-digit runs, but inside a string, after a letter.
const INEXACT_NUMBER = new RegExp(`[\\s:,[](?:${CHANGED})`);
const INEXACT_START = new RegExp(`^(?:${CHANGED})`);

/** Whether JSON text may hold a number `JSON.parse` changes (cheap; false means it is exact). */
export const mayHaveInexactNumbers = (text: string): boolean =>
  MAYBE_INEXACT.test(text) && (INEXACT_NUMBER.test(text) || INEXACT_START.test(text));

/** Whether `JSON.stringify` writes the double a number token reads as with the token's text. */
export const writesBackAsIs = (token: string): boolean => JSON.stringify(Number(token)) === token;

const NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** A decimal as `<sign><digits>e<exponent>` with no leading or trailing zeros ("0" for zero). */
function canonicalDecimal(token: string): string {
  const match = NUMBER.exec(token);
  if (match === null) return token;
  const [, sign, whole, fraction = "", exponent = "0"] = match;
  const digits = `${whole}${fraction}`.replace(/^0+/, "");
  if (digits === "") return "0";
  const trimmed = digits.replace(/0+$/, "");
  const power = BigInt(exponent) - BigInt(fraction.length) + BigInt(digits.length - trimmed.length);
  return `${sign}${trimmed}e${power}`;
}

/** Whether the double a number token reads as writes back as the same value. */
export function isExactNumber(token: string): boolean {
  const value = Number(token);
  if (!Number.isFinite(value)) return false;
  return canonicalDecimal(token) === canonicalDecimal(String(value).replace("e+", "e"));
}

const MAX_DEPTH = 1000;
const WHITESPACE = /[ \t\n\r]*/y;
const NUMBER_TOKEN = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;

/**
 * `JSON.parse` with numbers kept exact: a number `JSON.stringify` would not write back as it is
 * written (another value, or another text of the same value) becomes a `JsonNumber`; everything else is what `JSON.parse` gives (a `__proto__` key is an own property,
 * as there). With `under`, only numbers inside the values of those keys are kept (tool arguments:
 * `input`, `args`), so a field a schema wants as a number still reads as one. Throws
 * `SyntaxError` on text that is not JSON, or nested past 1000 levels.
 */
export function parseJsonExact(text: string, under?: ReadonlySet<string>): unknown {
  let at = 0;
  const fail = (): never => {
    throw new SyntaxError(`Unexpected token in JSON at position ${at}`);
  };
  const skip = () => {
    WHITESPACE.lastIndex = at;
    WHITESPACE.exec(text);
    at = WHITESPACE.lastIndex;
  };
  // A string token's text, up to its unescaped closing quote, found with indexOf: a regular
  // expression over a string of megabytes (an inline image's base64) runs out of stack. Its
  // escapes and characters are then checked, and decoded, by JSON.parse.
  const string = (): string => {
    const start = at;
    for (let from = at + 1; ; ) {
      const quote = text.indexOf('"', from);
      if (quote < 0) return fail();
      let slash = quote - 1;
      while (text.charCodeAt(slash) === 0x5c) slash--;
      if ((quote - 1 - slash) % 2 === 0) {
        at = quote + 1;
        return JSON.parse(text.slice(start, at)) as string;
      }
      from = quote + 1;
    }
  };
  const token = (pattern: RegExp): string => {
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (match === null) return fail();
    at = pattern.lastIndex;
    return match[0];
  };
  const value = (depth: number, exact: boolean): unknown => {
    if (depth > MAX_DEPTH) fail();
    skip();
    const c = text[at];
    if (c === "{") {
      at++;
      const object: Record<string, unknown> = {};
      skip();
      if (text[at] === "}") {
        at++;
        return object;
      }
      for (;;) {
        skip();
        if (text[at] !== '"') fail();
        const key = string();
        skip();
        if (text[at++] !== ":") fail();
        const item = value(depth + 1, exact || under?.has(key) === true);
        Object.defineProperty(object, key, {
          value: item,
          writable: true,
          enumerable: true,
          configurable: true,
        });
        skip();
        const next = text[at++];
        if (next === "}") return object;
        if (next !== ",") fail();
      }
    }
    if (c === "[") {
      at++;
      const array: unknown[] = [];
      skip();
      if (text[at] === "]") {
        at++;
        return array;
      }
      for (;;) {
        array.push(value(depth + 1, exact));
        skip();
        const next = text[at++];
        if (next === "]") return array;
        if (next !== ",") fail();
      }
    }
    if (c === '"') return string();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) {
      const number = token(NUMBER_TOKEN);
      return !exact || writesBackAsIs(number) ? Number(number) : new JsonNumber(number);
    }
    return JSON.parse(token(LITERAL));
  };
  const result = value(0, under === undefined);
  skip();
  if (at !== text.length) fail();
  return result;
}

/** `JSON.parse`, exact only where the text may need it (the usual text pays one regex test). */
export const parseJsonKeepingNumbers = (text: string): unknown =>
  mayHaveInexactNumbers(text) ? parseJsonExact(text) : JSON.parse(text);

/**
 * The keys whose values are tool-call arguments or tool results as objects in a wire body:
 * messages `input`, native `args` and native `functionResponse.response`.
 */
export const TOOL_ARGUMENT_KEYS: ReadonlySet<string> = new Set(["input", "args", "response"]);

/**
 * A wire body (a request, a reply, a stream frame): `JSON.parse`, but the numbers of tool-call
 * arguments and results (`TOOL_ARGUMENT_KEYS`) are kept exact, every other number reads as a double.
 */
export const parseWireJson = (text: string): unknown =>
  namesToolValues(text) && mayHaveInexactNumbers(text)
    ? parseJsonExact(text, TOOL_ARGUMENT_KEYS)
    : JSON.parse(text);

/**
 * Whether a text may hold a `TOOL_ARGUMENT_KEYS` key: without one, `parseWireJson` keeps no number
 * exact, so a body such as a Python client's chat request (`"temperature": 1.0`, no tool-argument
 * object) takes `JSON.parse` at once.
 */
const namesToolValues = (text: string): boolean => TOOL_VALUE_KEY.test(text);
// One scan for the three keys: three `includes` cost as much as parsing a small stream frame.
const TOOL_VALUE_KEY = /"(?:input|args|response)"/;

/**
 * `JSON.stringify` that writes each `JsonNumber` as its text. The numbers go through placeholder
 * strings, spliced afterwards; a placeholder some string of the value happens to spell is seen by
 * its count, and another one is chosen.
 */
export function stringifyJsonExact(value: unknown): string {
  for (let salt = ""; ; salt += "~") {
    const numbers: string[] = [];
    const marker = `\u0000${salt}#`;
    const text = JSON.stringify(value, function (this: Record<string, unknown>, key, item) {
      const original = this[key];
      if (original instanceof JsonNumber) {
        numbers.push(original.text);
        return `${marker}${numbers.length - 1}`;
      }
      return item;
    });
    if (numbers.length === 0 || text === undefined) return text as string;
    const quoted = `"\\u0000${salt}#`;
    if (text.split(quoted).length - 1 !== numbers.length) continue;
    return text.replace(
      new RegExp(`"\\\\u0000${salt}#(\\d+)"`, "g"),
      (_, i: string) => numbers[Number(i)]!,
    );
  }
}

/** Whether a parsed value holds a `JsonNumber` anywhere (so it needs `stringifyJsonExact`). */
export function hasJsonNumber(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (value instanceof JsonNumber) return true;
  // Indexes and keys as they are, without a list of the values to walk (this runs per call).
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (hasJsonNumber(value[i])) return true;
    return false;
  }
  for (const key in value) {
    if (Object.hasOwn(value, key) && hasJsonNumber((value as Record<string, unknown>)[key])) {
      return true;
    }
  }
  return false;
}

/** A parsed JSON value as text: exact when it holds a `JsonNumber`, plain `JSON.stringify` else. */
export const stringifyJsonKeepingNumbers = (value: unknown): string =>
  hasJsonNumber(value) ? stringifyJsonExact(value) : JSON.stringify(value);
