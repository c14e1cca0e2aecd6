import type { CacheTtl } from "@interlingua/core-types";

/** How long a context cache lives, by docs/api-reference.md's ttl values: its storage is billed per hour. */
export const CACHE_TTL_HOURS: Readonly<Record<CacheTtl, number>> = { "5m": 5 / 60, "1h": 1 };
