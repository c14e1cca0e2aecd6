import type { NativePartialArg } from "./native-api.js";

type Segment = string | number;
type Kind = "object" | "array";

interface Container {
  /** The key or index of this container in its parent (unused for the root). */
  segment: Segment;
  kind: Kind;
  /** Members written so far (for an array, also the next index). */
  count: number;
}

const nameChar = /[A-Za-z0-9_$-]/;

/**
 * An RFC 9535 path as the upstream writes it (`$.recipe.ingredients[0].name`, `$['a b']`) ->
 * its segments; undefined when it is not one.
 */
export function parseJsonPath(path: string): Segment[] | undefined {
  if (!path.startsWith("$")) return undefined;
  const segments: Segment[] = [];
  let i = 1;
  while (i < path.length) {
    const c = path[i];
    if (c === ".") {
      let j = i + 1;
      while (j < path.length && nameChar.test(path[j] as string)) j++;
      if (j === i + 1) return undefined;
      segments.push(path.slice(i + 1, j));
      i = j;
    } else if (c === "[") {
      const q = path[i + 1];
      if (q === "'" || q === '"') {
        let j = i + 2;
        let name = "";
        while (j < path.length && path[j] !== q) {
          if (path[j] === "\\" && j + 1 < path.length) j++;
          name += path[j];
          j++;
        }
        if (path[j + 1] !== "]") return undefined;
        segments.push(name);
        i = j + 2;
      } else {
        const close = path.indexOf("]", i);
        if (close < 0) return undefined;
        const index = Number(path.slice(i + 1, close));
        if (!Number.isInteger(index) || index < 0) return undefined;
        segments.push(index);
        i = close + 1;
      }
    } else {
      return undefined;
    }
  }
  return segments;
}

const escapeFragment = (s: string) => JSON.stringify(s).slice(1, -1);
const kindFor = (next: Segment): Kind => (typeof next === "number" ? "array" : "object");
const closer = (kind: Kind) => (kind === "object" ? "}" : "]");

/**
 * Streams a function call's arguments as JSON text while the upstream sends them as `partialArgs`
 * (a value per JSON path; a string value may continue over several fragments while
 * `willContinue` is true). Each `push` returns the next piece of the JSON text, so the pieces
 * concatenated and closed by `finish` are the arguments object. Values arrive in document order;
 * a path that goes back into a container already closed is appended again (the JSON then holds the
 * key twice, and parsers keep the last), and a skipped array index is filled with null.
 */
export class PartialArgsJsonWriter {
  private readonly stack: Container[] = [];
  private openString: string | undefined;
  private started = false;

  /** Whether any argument text has been written. */
  get hasOutput(): boolean {
    return this.started;
  }

  push(arg: NativePartialArg): string {
    let out = "";
    if (this.openString !== undefined) {
      if (this.openString === arg.jsonPath && arg.stringValue !== undefined) {
        out += escapeFragment(arg.stringValue);
        if (!arg.willContinue) {
          out += '"';
          this.openString = undefined;
        }
        return out;
      }
      out += '"';
      this.openString = undefined;
    }
    const segments = parseJsonPath(arg.jsonPath);
    const value = this.valueText(arg);
    if (segments === undefined || segments.length === 0 || value === undefined) return out;
    if (!this.started) {
      this.started = true;
      this.stack.push({ segment: "$", kind: "object", count: 0 });
      out += "{";
    }
    const parentDepth = segments.length - 1;
    let common = 0;
    while (common < this.stack.length - 1 && common < parentDepth) {
      const open = this.stack[common + 1] as Container;
      if (
        open.segment !== segments[common] ||
        open.kind !== kindFor(segments[common + 1] as Segment)
      ) {
        break;
      }
      common++;
    }
    while (this.stack.length - 1 > common) out += closer((this.stack.pop() as Container).kind);
    for (let i = common; i < parentDepth; i++) {
      const segment = segments[i] as Segment;
      const kind = kindFor(segments[i + 1] as Segment);
      out += this.member(segment) + (kind === "object" ? "{" : "[");
      this.stack.push({ segment, kind, count: 0 });
    }
    out += this.member(segments[parentDepth] as Segment) + value;
    if (arg.stringValue !== undefined && arg.willContinue) this.openString = arg.jsonPath;
    return out;
  }

  /** A whole `args` object for a call whose arguments were not streamed. */
  whole(args: Record<string, unknown>): string {
    if (this.started) return "";
    this.started = true;
    return JSON.stringify(args);
  }

  /** The text that closes the arguments ("{}" when none came). */
  finish(): string {
    let out = this.openString === undefined ? "" : '"';
    this.openString = undefined;
    if (!this.started) {
      this.started = true;
      return "{}";
    }
    while (this.stack.length > 0) out += closer((this.stack.pop() as Container).kind);
    return out;
  }

  private valueText(arg: NativePartialArg): string | undefined {
    if (arg.stringValue !== undefined) {
      return `"${escapeFragment(arg.stringValue)}${arg.willContinue ? "" : '"'}`;
    }
    if (arg.numberValue !== undefined) {
      return Number.isFinite(arg.numberValue) ? JSON.stringify(arg.numberValue) : "null";
    }
    if (arg.boolValue !== undefined) return arg.boolValue ? "true" : "false";
    if ("nullValue" in arg) return "null";
    return undefined;
  }

  private member(segment: Segment): string {
    const parent = this.stack[this.stack.length - 1] as Container;
    let out = "";
    if (parent.kind === "object") {
      out = `${parent.count > 0 ? "," : ""}${JSON.stringify(String(segment))}:`;
      parent.count++;
      return out;
    }
    const index = typeof segment === "number" ? segment : parent.count;
    while (parent.count < index) {
      out += `${parent.count > 0 ? "," : ""}null`;
      parent.count++;
    }
    out += parent.count > 0 ? "," : "";
    parent.count = Math.max(parent.count, index) + 1;
    return out;
  }
}
