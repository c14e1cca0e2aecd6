// A tiny measuring loop: warm up, then run batches until the time budget is spent, and report
// the best batch rate (the least disturbed by GC and the other core's load). Rates are per
// second of this process's CPU time, not of the wall clock: on a loaded two-core machine the
// wall clock counts the time other processes held the core, and ratios of two rows measured a
// second apart swung 2x; CPU time does not count it.

/** This process's CPU time (user + system, all its threads) in ms. */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
export interface Measurement {
  name: string;
  opsPerSecond: number;
  bytesPerSecond?: number;
}

export function measure(
  name: string,
  fn: () => void,
  options: { budgetMs?: number; bytesPerOp?: number } = {},
): Measurement {
  const budget = options.budgetMs ?? 1500;
  for (let i = 0; i < 200; i++) fn();
  let batch = 1;
  let best = 0;
  const end = performance.now() + budget;
  while (performance.now() < end) {
    const start = cpuMs();
    for (let i = 0; i < batch; i++) fn();
    const elapsed = cpuMs() - start;
    if (elapsed < 20) batch *= 2;
    else best = Math.max(best, (batch * 1000) / elapsed);
  }
  const result: Measurement = { name, opsPerSecond: best };
  if (options.bytesPerOp !== undefined) result.bytesPerSecond = best * options.bytesPerOp;
  return result;
}

/**
 * Like `measure` for async work: warm up, then time slices of about 100 ms of CPU until the
 * budget is spent, and report the best slice (the least disturbed by GC and the other core's load).
 */
export async function measureAsync(
  name: string,
  fn: () => Promise<void>,
  options: { budgetMs?: number; bytesPerOp?: number; unitsPerOp?: number } = {},
): Promise<Measurement> {
  const budget = options.budgetMs ?? 1500;
  for (let i = 0; i < 20; i++) await fn();
  let best = 0;
  const end = performance.now() + budget;
  do {
    const start = cpuMs();
    let ops = 0;
    do {
      await fn();
      ops++;
    } while (cpuMs() - start < 100);
    best = Math.max(best, (ops * 1000) / (cpuMs() - start));
  } while (performance.now() < end);
  const result: Measurement = { name, opsPerSecond: best * (options.unitsPerOp ?? 1) };
  if (options.bytesPerOp !== undefined) result.bytesPerSecond = best * options.bytesPerOp;
  return result;
}

export function report(rows: Measurement[], unit = "ops/s"): void {
  const width = Math.max(...rows.map((r) => r.name.length));
  for (const row of rows) {
    const rate = Math.round(row.opsPerSecond).toLocaleString("en-US");
    const mb =
      row.bytesPerSecond === undefined ? "" : `  ${(row.bytesPerSecond / 1e6).toFixed(1)} MB/s`;
    console.log(`${row.name.padEnd(width)}  ${rate.padStart(12)} ${unit}${mb}`);
  }
}
