import type { Logger } from "../log/logger.ts";
import { type PeriodicSweep, startPeriodicSweep } from "../queue/periodic-sweep.ts";
import type { FileRecords, FileStore } from "./file-store.ts";

export interface FileSweeperOptions {
  readonly records: FileRecords;
  readonly store: FileStore;
  readonly now: () => number;
  readonly log: Logger;
  /** Between sweeps (ms). */
  readonly intervalMs?: number;
  /** Rows taken per statement. */
  readonly batch?: number;
}

/** Deletes every file expired now (rows first, then bytes); `sweep` resolves to how many. */
export type FileSweeper = PeriodicSweep;

export const DEFAULT_SWEEP_INTERVAL_MS = 60_000;

/**
 * Deletes expired files. A row is taken (deleted) before its bytes, so with several instances
 * each file is swept by exactly one; bytes whose delete failed are only logged (the URL already
 * answers 404: their row is gone).
 */
export function startFileSweeper(options: FileSweeperOptions): FileSweeper {
  return startPeriodicSweep({
    sweepBatch: async (limit) => {
      const expired = await options.records.takeExpired(options.now(), limit);
      for (const record of expired) {
        await options.store.delete(record.key).catch((err: unknown) => {
          options.log.warn({ file: record.key, err }, "could not delete an expired file's bytes");
        });
      }
      return expired.length;
    },
    batch: options.batch ?? 100,
    intervalMs: options.intervalMs ?? DEFAULT_SWEEP_INTERVAL_MS,
    log: options.log,
    failed: "file sweep failed",
  });
}
