import type { ResolvedOptions } from "../options.ts";
import { createFaultBook, type FaultBook } from "./fault-book.ts";

/** What every route shares: the options, the fault book and a counter for unique ids. */
export type Sim = {
  options: ResolvedOptions;
  faults: FaultBook;
  sequence(): number;
};

export function createSim(options: ResolvedOptions): Sim {
  let counter = 0;
  return {
    options,
    faults: createFaultBook(options.fault, options.maxDelayMs),
    sequence: () => ++counter,
  };
}
