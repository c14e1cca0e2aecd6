import type { Request, UpstreamProtocol, Warning, WirePath } from "@interlingua/core-types";
import { findBoundaries } from "./find-boundaries.js";

// docs/api-reference.md rule 8 for what is forwarded without a cache plan (no boundary, an explicit native
// cachedContent, a messages or responses client toward another upstream): nothing carries
// `cache_control`. A plan's own request is already stripped (bar Anthropic's one breakpoint).

type Wire = Record<string, unknown>;

const isRecord = (value: unknown): value is Wire =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `value` without the key at `path`; copies only what changes, and names what it removed. */
function removeAt(value: unknown, path: WirePath, at: string, removed: string[]): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  if (head === "*") {
    if (!Array.isArray(value)) return value;
    let changed = false;
    const out = value.map((item, i) => {
      const next = removeAt(item, rest, `${at}[${i}]`, removed);
      changed ||= next !== item;
      return next;
    });
    return changed ? out : value;
  }
  if (!isRecord(value) || !(head in value)) return value;
  const name = at === "" ? head : `${at}.${head}`;
  if (rest.length === 0) {
    const { [head]: _dropped, ...kept } = value;
    removed.push(name);
    return kept;
  }
  const next = removeAt(value[head], rest, name, removed);
  return next === value[head] ? value : { ...value, [head]: next };
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
  let out = wire;
  for (const path of positions) out = removeAt(out, path, "", removed) as Wire;
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
