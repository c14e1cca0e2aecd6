import type { CacheBoundary, CacheTtl } from "@interlingua/core-types";
import type { CachedAnalysis, OrdinaryCache } from "../src/cache-analysis.js";

/** A cached analysis with no warnings, as `analyzeCache` returns it. */
export const cached = (
  boundary: CacheBoundary,
  prefixMessages: number,
  ttl: CacheTtl = "5m",
): CachedAnalysis => ({ mode: "cached", ttl, boundary, prefixMessages, warnings: [] });

/** A cached analysis of the first `prefixMessages` messages, boundary on the last one's part 0. */
export const cachedThrough = (prefixMessages: number, ttl: CacheTtl = "5m"): CachedAnalysis =>
  cached({ area: "messages", message: prefixMessages - 1, part: 0 }, prefixMessages, ttl);

/** An ordinary analysis (nothing live after the boundary) with no warnings. */
export const ordinary = (boundary: CacheBoundary, ttl: CacheTtl = "5m"): OrdinaryCache => ({
  mode: "ordinary",
  reason: "no-live-message",
  ttl,
  boundary,
  warnings: [],
});
