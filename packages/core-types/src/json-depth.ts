/**
 * The deepest nesting of objects and arrays a request may carry. Real requests stay far below it
 * (a tool's JSON schema ten levels deep is about twenty here); far above it, every recursive walk
 * of a body (schema sanitizers, `JSON.stringify`, format converters) would risk the stack.
 */
export const MAX_JSON_DEPTH = 128;

interface Pending {
  readonly value: object;
  readonly depth: number;
  readonly parent: Pending | undefined;
  readonly key: string | number | undefined;
}

/** `messages[1].tool_calls[0].function.arguments`-style path of an entry, built only on failure. */
function pathOf(entry: Pending | undefined, key: string | number | undefined): string {
  const keys: (string | number)[] = [];
  if (key !== undefined) keys.push(key);
  for (let at = entry; at !== undefined && at.key !== undefined; at = at.parent) keys.push(at.key);
  let path = "";
  for (const k of keys.reverse()) {
    path += typeof k === "number" ? `[${k}]` : path === "" ? k : `.${k}`;
  }
  return path;
}

/**
 * How deep the JSON in `text` nests, counting brackets outside string literals, without parsing;
 * stops counting once past `limit` (the answer is then `limit + 1`). Not a validator: only what
 * a later `JSON.parse` of the text would build is bounded.
 */
export function jsonTextDepth(text: string, limit: number = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return limit + 1;
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/**
 * The path of the first place where `value` nests objects and arrays more than `max` levels deep
 * (the body itself is level 1), or undefined when it never does. Strings that hold JSON (tool-call
 * arguments, which converters parse) count with the depth they sit at. Iterative: a body of any
 * depth is measured without recursion, and the walk stops at the first excess.
 */
export function findTooDeep(value: unknown, max: number = MAX_JSON_DEPTH): string | undefined {
  if (typeof value !== "object" || value === null) {
    return typeof value === "string" && jsonTextDepth(value, max) > max ? "" : undefined;
  }
  const stack: Pending[] = [{ value, depth: 1, parent: undefined, key: undefined }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (entry.depth > max) return pathOf(entry.parent, entry.key);
    const see = (child: unknown, key: string | number): string | undefined => {
      if (typeof child === "object" && child !== null) {
        stack.push({ value: child, depth: entry.depth + 1, parent: entry, key });
      } else if (typeof child === "string" && child.length > 1) {
        const first = child.charCodeAt(0);
        // Only a string that starts like JSON can be parsed into nesting.
        const room = max - entry.depth;
        if ((first === 0x7b || first === 0x5b) && jsonTextDepth(child, room) > room) {
          return pathOf(entry, key);
        }
      }
      return undefined;
    };
    if (Array.isArray(entry.value)) {
      const items = entry.value as unknown[];
      for (let i = 0; i < items.length; i++) {
        const found = see(items[i], i);
        if (found !== undefined) return found;
      }
    } else {
      for (const key in entry.value) {
        const found = see((entry.value as Record<string, unknown>)[key], key);
        if (found !== undefined) return found;
      }
    }
  }
  return undefined;
}
