import type { Request, UpstreamProtocol, Warning, WirePath } from "@interlingua/core-types";
import { findBoundaries } from "./find-boundaries.js";

// docs/api-reference.md rule 8 for what is forwarded without a cache plan (no boundary, an explicit native
// cachedContent, a messages or responses client toward another upstream): nothing carries
// `cache_control`. A plan's own request is already stripped (bar Anthropic's one breakpoint).

type Wire = Record<string, unknown>;

const isRecord = (value: unknown): value is Wire =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * `value` without the key at `path` (from `depth` on); copies only what changes, and names what
 * it removed. It runs on every same-format request, nearly always removing nothing: it walks by
 * index and builds a name only for a removal, so such a request allocates nothing here.
 */
function removeAt(
  value: unknown,
  path: WirePath,
  depth: number,
  indexes: number[],
  removed: string[],
): unknown {
  const head = path[depth];
  if (head === undefined) return value;
  if (head === "*") {
    if (!Array.isArray(value)) return value;
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      indexes.push(i);
      const next = removeAt(value[i], path, depth + 1, indexes, removed);
      indexes.pop();
      if (next !== value[i]) {
        out ??= value.slice();
        out[i] = next;
      }
    }
    return out ?? value;
  }
  if (!isRecord(value) || !(head in value)) return value;
  if (depth === path.length - 1) {
    const { [head]: _dropped, ...kept } = value;
    removed.push(nameAt(path, depth, indexes));
    return kept;
  }
  const next = removeAt(value[head], path, depth + 1, indexes, removed);
  return next === value[head] ? value : { ...value, [head]: next };
}

/** The name of `path` up to `depth`, with the array indexes the walk took (`messages[0].content[1]`). */
function nameAt(path: WirePath, depth: number, indexes: readonly number[]): string {
  let name = "";
  let star = 0;
  for (let at = 0; at <= depth; at++) {
    const step = path[at] as string;
    if (step === "*") name += `[${indexes[star++]}]`;
    else name += name === "" ? step : `.${step}`;
  }
  return name;
}

/**
 * A client's body without `cache_control` at `positions` (its protocol's `hintCacheControlAt`),
 * and the paths it had them at. Only those places, so a tool schema property that happens to be
 * called `cache_control` is left alone.
 */
export function stripWireCacheControl(
  positions: readonly WirePath[],
  wire: Wire,
): { wire: Wire; removed: string[] } {
  const removed: string[] = [];
  const indexes: number[] = [];
  let out = wire;
  for (const path of positions) out = removeAt(out, path, 0, indexes, removed) as Wire;
  return { wire: out, removed };
}

/** Where a canonical request carries a boundary (or a top-level `cache_control` in its extras). */
export function canonicalCacheControlPaths(request: Request): string[] {
  const paths = findBoundaries(request).map(({ boundary }) =>
    boundary.area === "system"
      ? `system[${boundary.part}].cacheControl`
      : `messages[${boundary.message}].parts[${boundary.part}]${
          boundary.content === undefined ? "" : `.content[${boundary.content}]`
        }.cacheControl`,
  );
  for (const [t, tool] of request.tools.entries()) {
    if ("cacheControl" in tool && tool.cacheControl !== undefined) {
      paths.push(`tools[${t}].cacheControl`);
    }
  }
  for (const [format, bag] of Object.entries(request.extras ?? {})) {
    if ("cache_control" in bag) paths.push(`extras.${format}.cache_control`);
  }
  return paths;
}

/** The warning for markers removed from a request that has no cache plan on this upstream. */
export function cacheControlDropped(
  removed: readonly string[],
  protocol: UpstreamProtocol,
): Warning {
  return {
    type: "dropped",
    feature: "cacheControl",
    message: `${removed.join(", ")}: cache_control is not forwarded to the ${protocol} upstream (no cache plan applies to it here)`,
  };
}
