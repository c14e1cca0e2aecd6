// The cost of accounting (issue "Accounts and money": rerun the gateway load benchmark with
// billing and logging on and print the cost as a ratio; target within 10% of the run without).
// `gateway-load.bench.ts --accounting compare` (its default) starts a second gateway with
// accounting off beside the one with accounting on, which serves a LIMITED token of a LIMITED
// user, so every call really takes a hold on both (from their quota leases), settles and writes
// its usage row. Each gateway row gets an "accounting off" twin measured right after it
// (interleaved, so both see the same machine), and each pair is printed as the on/off ratio of
// requests per second.
import type { LoadCase, LoadResult } from "../../apps/gateway/bench/load.ts";

export type AccountingMode = "on" | "off" | "compare";

export const ACCOUNTING_MODES: readonly AccountingMode[] = ["on", "off", "compare"];

/** `serve.ts gateway <simulator>` flags of the gateway that takes the benchmark's main rows. */
export const GATEWAY_FLAGS: Record<AccountingMode, string[]> = {
  on: [],
  off: ["--no-accounting"],
  // Accounting on, with a limited token on a limited user: holds are really taken on both.
  compare: ["--limited"],
};

const OFF_PREFIX = "accounting off: ";

/**
 * Each row of the gateway at `onUrl` followed by its twin at `offUrl` (same request, accounting
 * off). Rows of other targets are left as they are.
 */
export function withAccountingTwins<T extends LoadCase>(
  rows: readonly T[],
  onUrl: string,
  offUrl: string,
): T[] {
  return rows.flatMap((row) =>
    row.url.startsWith(`${onUrl}/`)
      ? [
          row,
          { ...row, name: `${OFF_PREFIX}${row.name}`, url: offUrl + row.url.slice(onUrl.length) },
        ]
      : [row],
  );
}

/** One line per twinned row: on/off req/s, and p50 latencies for context. */
export function printAccountingCost(
  rows: readonly LoadCase[],
  results: ReadonlyMap<string, LoadResult>,
): void {
  const pairs = rows
    .filter((row) => results.has(`${OFF_PREFIX}${row.name}`))
    .map((row) => ({
      name: row.name,
      on: results.get(row.name)!,
      off: results.get(`${OFF_PREFIX}${row.name}`)!,
    }));
  if (pairs.length === 0) return;
  console.log(
    "cost of accounting (limited token and user, reserve + settle + usage row per call):",
  );
  const width = Math.max(...pairs.map((p) => p.name.length));
  for (const { name, on, off } of pairs) {
    const ratio = on.perSecond / off.perSecond;
    console.log(
      `  ${name.padEnd(width)}  on/off ${ratio.toFixed(2)}x req/s` +
        ` (${Math.round(on.perSecond)} / ${Math.round(off.perSecond)})` +
        `  p50 ${on.p50Ms.toFixed(1)} / ${off.p50Ms.toFixed(1)} ms` +
        `  ${ratio >= 0.9 ? "within" : "OUTSIDE"} the 10% target`,
    );
  }
}
