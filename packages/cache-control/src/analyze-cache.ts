import { type CacheTtl, cacheTtlSchema, type Request, type Warning } from "@interlingua/core-types";
import { invalidRequest } from "@interlingua/errors";
import type { CacheAnalysis, CacheClientFormat } from "./cache-analysis.js";
import { type FoundBoundary, findBoundaries } from "./find-boundaries.js";
import { boundaryWirePath } from "./wire-path.js";

/** The spec's default when a boundary names no ttl. */
export const defaultCacheTtl: CacheTtl = "5m";

interface ValidBoundary extends FoundBoundary {
  ttl: CacheTtl;
  /** `...cache_control` in the client's wire terms. */
  path: string;
}

function validate(found: FoundBoundary, path: string): ValidBoundary {
  const { type, ttl } = found.control;
  if (type !== "ephemeral") {
    throw invalidRequest(
      `${path}.type: cache_control.type must be "ephemeral", got ${JSON.stringify(type)}`,
      `${path}.type`,
    );
  }
  if (ttl === undefined) return { ...found, ttl: defaultCacheTtl, path };
  const parsed = cacheTtlSchema.safeParse(ttl);
  if (!parsed.success) {
    throw invalidRequest(
      `${path}.ttl: cache_control.ttl must be "5m" or "1h", got ${JSON.stringify(ttl)}`,
      `${path}.ttl`,
    );
  }
  return { ...found, ttl: parsed.data, path };
}

/** Rule 5: several boundaries must agree on one ttl; the first one that differs is named. */
function commonTtl(boundaries: ValidBoundary[]): CacheTtl | undefined {
  const first = boundaries[0];
  if (first === undefined) return undefined;
  const other = boundaries.find((b) => b.ttl !== first.ttl);
  if (other !== undefined) {
    throw invalidRequest(
      `${other.path}.ttl: all cache boundaries must share one ttl; this one is "${other.ttl}" but ${first.path} is "${first.ttl}"`,
      `${other.path}.ttl`,
    );
  }
  return first.ttl;
}

/**
 * Finds and validates the request's inline cache boundaries (docs/api-reference.md "Context cache", rules 1, 2,
 * 5, 6 and 8) and decides what the gateway does: nothing, forward an explicit cache, run
 * ordinary, or cache the prefix up to the last boundary. Throws the 400 invalid-request
 * GatewayError naming the field in the client's wire terms for a bad or mixed ttl.
 */
export function analyzeCache(request: Request, format: CacheClientFormat): CacheAnalysis {
  const warnings: Warning[] = [];
  const candidates = findBoundaries(request).filter((found) => {
    if (format !== "native" || found.boundary.area !== "system") return true;
    warnings.push({
      type: "dropped",
      feature: `system[${found.boundary.part}].cacheControl`,
      message: "a cache boundary never sits inside systemInstruction; it was ignored",
    });
    return false;
  });
  const boundaries = candidates.map((found) =>
    validate(found, `${boundaryWirePath(request, format, found.boundary)}.cache_control`),
  );
  const ttl = commonTtl(boundaries);

  const cachedContent = request.providerExtras?.gemini?.cachedContent;
  if (format === "native" && cachedContent !== undefined) {
    if (boundaries.length > 0) {
      warnings.push({
        type: "dropped",
        feature: "cacheControl",
        message: `the request names cachedContent ${cachedContent}; its cache boundaries create no cache`,
      });
    }
    return { mode: "explicit", cachedContent, warnings };
  }
  const last = boundaries[boundaries.length - 1];
  if (last === undefined || ttl === undefined) return { mode: "none", warnings };

  const boundary = last.boundary;
  const prefixMessages = boundary.area === "system" ? 0 : boundary.message + 1;
  if (prefixMessages >= request.messages.length) {
    return { mode: "ordinary", reason: "no-live-message", ttl, boundary, warnings };
  }
  return { mode: "cached", ttl, boundary, prefixMessages, warnings };
}
