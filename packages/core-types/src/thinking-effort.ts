// Apart from thinking-config.ts, which holds zod schemas: the codecs call these helpers, and a
// bundler drops a module none of whose exports is used, but never a top-level schema call in one it
// keeps.
import type { ThinkingEffort } from "./thinking-config.js";

/** Token budgets (Anthropic, Gemini) -> the effort level that spends about as much. */
const budgetLevels: ReadonlyArray<readonly [maxBudget: number, effort: ThinkingEffort]> = [
  [4095, "low"],
  [16383, "medium"],
  [Number.POSITIVE_INFINITY, "high"],
];

export function effortForBudget(budget: number): ThinkingEffort {
  for (const [max, effort] of budgetLevels) if (budget <= max) return effort;
  return "high";
}
