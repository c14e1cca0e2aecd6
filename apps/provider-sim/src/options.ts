import { fileURLToPath } from "node:url";
import type { RecordedRequest } from "./core/record.ts";

export type Protocol = "openai" | "anthropic" | "gemini";

export type ProviderSimOptions = {
  /**
   * API keys to accept. Default: any non-empty key. A list applies to all three protocols;
   * an object sets them per protocol (a protocol left out accepts any key).
   */
  keys?: string[] | Partial<Record<Protocol, string[]>>;
  /** Folder that `[[replay:PATH]]` reads from. Default: the repository's fixtures/. */
  fixturesDir?: string;
  /**
   * Veo operations answer `done: false` to `pendingPolls` polls (default 1) and until `pendingMs`
   * have passed on the `now` clock (default 0). `{pendingPolls: 0, pendingMs: 0}` finishes on the
   * first poll (fast mode for CI); a pinned `now` plus `pendingMs` lets a test step time by hand.
   */
  veo?: { pendingPolls?: number; pendingMs?: number };
  /** Fault spec applied to every request that carries none (same grammar as `x-sim-fault`). */
  fault?: string;
  /** Upper bound of any simulated delay, hang included, in ms. Default 30000. */
  maxDelayMs?: number;
  /** `false` to keep no request log (benchmarks); a number to keep that many. Default 1000. */
  record?: boolean | number;
  /** Clock for `created` timestamps, expiry times and Veo timing; tests pin it for whole-body assertions. */
  now?: () => number;
  /** Where the request log goes; `startProviderSim` passes its own array. */
  requests?: RecordedRequest[];
};

export type ResolvedOptions = {
  keys: Record<Protocol, ReadonlySet<string> | undefined>;
  fixturesDir: string;
  veo: { pendingPolls: number; pendingMs: number };
  fault: string | undefined;
  maxDelayMs: number;
  recordMax: number;
  now: () => number;
  requests: RecordedRequest[];
};

export const DEFAULT_FIXTURES_DIR = fileURLToPath(new URL("../../../fixtures", import.meta.url));

function keySets(keys: ProviderSimOptions["keys"]): ResolvedOptions["keys"] {
  const set = (list: string[] | undefined) => (list ? new Set(list) : undefined);
  if (Array.isArray(keys)) {
    const all = set(keys);
    return { openai: all, anthropic: all, gemini: all };
  }
  return { openai: set(keys?.openai), anthropic: set(keys?.anthropic), gemini: set(keys?.gemini) };
}

export function resolveOptions(options: ProviderSimOptions = {}): ResolvedOptions {
  const record = options.record ?? true;
  return {
    keys: keySets(options.keys),
    fixturesDir: options.fixturesDir ?? DEFAULT_FIXTURES_DIR,
    veo: { pendingPolls: options.veo?.pendingPolls ?? 1, pendingMs: options.veo?.pendingMs ?? 0 },
    fault: options.fault,
    maxDelayMs: options.maxDelayMs ?? 30_000,
    recordMax: record === false ? 0 : record === true ? 1000 : record,
    now: options.now ?? Date.now,
    requests: options.requests ?? [],
  };
}
