import type { ResolvedOptions } from "../options.ts";
import { createFaultBook, type FaultBook } from "./fault-book.ts";
import { createPromptCacheStore, type PromptCacheStore } from "./prompt-cache.ts";

/**
 * What every route shares: the options, the fault book, the automatic prompt caches (Anthropic
 * and OpenAI; Gemini keeps its explicit cachedContents apart) and a counter for unique ids.
 */
export type Sim = {
  options: ResolvedOptions;
  faults: FaultBook;
  promptCache: PromptCacheStore;
  sequence(): number;
};

export function createSim(options: ResolvedOptions): Sim {
  let counter = 0;
  return {
    options,
    faults: createFaultBook(options.fault, options.maxDelayMs),
    promptCache: createPromptCacheStore(options.now),
    sequence: () => ++counter,
  };
}
