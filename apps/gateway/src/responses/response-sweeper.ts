import type { Logger } from "../log/logger.ts";
import { type PeriodicSweep, startPeriodicSweep } from "../queue/periodic-sweep.ts";
import type { ResponseStore } from "../storage/response-store.ts";

/** Deletes every stored response expired now (with its items); `sweep` resolves to how many. */
export type ResponseSweeper = PeriodicSweep;

const DEFAULT_INTERVAL_MS = 10 * 60_000;
const BATCH = 500;

/**
 * Deletes stored responses past `responses.retention_days`. Reads never return an expired
 * response even before it is swept; the sweep only frees the space. Each batch is one
 * transaction, so two instances never both delete a row.
 */
export function startResponseSweeper(options: {
  readonly store: ResponseStore;
  readonly now: () => number;
  readonly log: Logger;
  readonly intervalMs?: number;
}): ResponseSweeper {
  return startPeriodicSweep({
    sweepBatch: (limit) => options.store.sweep(options.now(), limit),
    batch: BATCH,
    intervalMs: options.intervalMs ?? DEFAULT_INTERVAL_MS,
    log: options.log,
    failed: "stored response sweep failed",
  });
}
