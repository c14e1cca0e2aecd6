import type { Logger } from "../log/logger.ts";
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

export interface FileSweeper {
  /** Deletes every file expired now (rows first, then bytes); resolves to how many. */
  sweep(): Promise<number>;
  stop(): Promise<void>;
}

export const DEFAULT_SWEEP_INTERVAL_MS = 60_000;

/**
 * Deletes expired files on a timer that never keeps the process alive. A row is taken (deleted)
 * before its bytes, so with several instances each file is swept by exactly one; bytes whose
 * delete failed are only logged (the URL already answers 404: their row is gone).
 */
export function startFileSweeper(options: FileSweeperOptions): FileSweeper {
  const batch = options.batch ?? 100;
  let running: Promise<number> | undefined;

  const sweepAll = async (): Promise<number> => {
    let swept = 0;
    for (;;) {
      const expired = await options.records.takeExpired(options.now(), batch);
      for (const record of expired) {
        await options.store.delete(record.key).catch((err: unknown) => {
          options.log.warn({ file: record.key, err }, "could not delete an expired file's bytes");
        });
      }
      swept += expired.length;
      if (expired.length < batch) return swept;
    }
  };

  // One sweep at a time: a timer tick during a long sweep joins it instead of starting another.
  const sweep = (): Promise<number> => {
    running ??= sweepAll().finally(() => {
      running = undefined;
    });
    return running;
  };

  const timer = setInterval(() => {
    sweep().catch((err: unknown) => options.log.warn({ err }, "file sweep failed"));
  }, options.intervalMs ?? DEFAULT_SWEEP_INTERVAL_MS);
  timer.unref();

  return {
    sweep,
    async stop() {
      clearInterval(timer);
      await running?.catch(() => {});
    },
  };
}
