import type { Warning } from "@interlingua/core-types";
import type { MessagesRequestWire } from "./messages-api.js";
import { MESSAGES_MIN_THINKING_BUDGET } from "./messages-model-defaults.js";

type Warn = (type: Warning["type"], feature: string, message: string) => void;

/** Anthropic accepts top_p only between these while thinking is on. */
export const MESSAGES_THINKING_MIN_TOP_P = 0.95;

/**
 * Tokens a derived budget leaves for the answer: a quarter of max_tokens, at least 1024. (A
 * `high` effort with max_tokens 20000 thinks 15000 and answers in 5000, not in 1.)
 */
export const messagesAnswerRoom = (maxTokens: number): number =>
  Math.max(MESSAGES_MIN_THINKING_BUDGET, Math.floor(maxTokens / 4));

/** A budget the gateway chose (from an effort or the default), fitted below max_tokens. */
export const derivedThinkingBudget = (wanted: number, maxTokens: number): number =>
  Math.max(
    MESSAGES_MIN_THINKING_BUDGET,
    Math.min(wanted, maxTokens - messagesAnswerRoom(maxTokens)),
  );

/**
 * Anthropic's documented rules for thinking, applied to a rendered body before it is sent, so
 * the gateway never sends what Anthropic is documented to reject (extended-thinking docs):
 *
 * - budget_tokens is at least 1024 and below max_tokens. A budget the gateway derived (from an
 *   effort or the default) also leaves `messagesAnswerRoom(max_tokens)` for the answer; a
 *   client's own budget that does not fit below max_tokens is shrunk to leave that room (the
 *   client's max_tokens is its cap on thinking plus answer, as in the chat and native formats).
 *   Where max_tokens is 1024 or less no budget fits: thinking is turned off (`dropped`).
 * - Thinking cannot be combined with a forced tool (tool_choice any or tool): thinking is turned
 *   off, the forced tool kept (`dropped`).
 * - With thinking on, temperature may only be 1 and top_k is not accepted (both `dropped`), and
 *   top_p must be between 0.95 and 1 (raised to 0.95, `mapped`).
 */
export function fitThinkingConstraints(
  out: MessagesRequestWire,
  /** The budget is the client's own (not derived from an effort or the default). */
  explicitBudget: boolean,
  warn: Warn,
): void {
  const thinking = out.thinking;
  if (thinking === undefined || thinking.type === "disabled") return;
  const off = (message: string) => {
    delete out.thinking;
    warn("dropped", "thinking", message);
  };
  const choice = out.tool_choice?.type;
  if (choice === "any" || choice === "tool") {
    off(`Anthropic refuses thinking with a forced tool (tool_choice ${choice}); thinking is off`);
    return;
  }
  if (thinking.type === "enabled") {
    const max = out.max_tokens;
    let budget = thinking.budget_tokens;
    // A derived budget was fitted by `derivedThinkingBudget`; a client's own one is fitted here.
    if (explicitBudget) {
      budget = Math.max(budget, MESSAGES_MIN_THINKING_BUDGET);
      if (budget >= max) {
        budget = Math.max(MESSAGES_MIN_THINKING_BUDGET, max - messagesAnswerRoom(max));
      }
    }
    if (budget >= max) {
      off(
        `max_tokens ${max} leaves no room for Anthropic's minimum thinking budget of ${MESSAGES_MIN_THINKING_BUDGET}; thinking is off`,
      );
      return;
    }
    if (budget !== thinking.budget_tokens) {
      warn(
        "mapped",
        "thinking.budgetTokens",
        `thinking budget_tokens set to ${budget} (at least ${MESSAGES_MIN_THINKING_BUDGET} and below max_tokens ${max})`,
      );
      thinking.budget_tokens = budget;
    }
  }
  if (out.temperature !== undefined && out.temperature !== 1) {
    delete out.temperature;
    warn(
      "dropped",
      "sampling.temperature",
      "Anthropic accepts only temperature 1 with thinking on",
    );
  }
  if (out.top_k !== undefined) {
    delete out.top_k;
    warn("dropped", "sampling.topK", "Anthropic accepts no top_k with thinking on");
  }
  if (out.top_p !== undefined && out.top_p < MESSAGES_THINKING_MIN_TOP_P) {
    out.top_p = MESSAGES_THINKING_MIN_TOP_P;
    warn(
      "mapped",
      "sampling.topP",
      `Anthropic accepts top_p from ${MESSAGES_THINKING_MIN_TOP_P} to 1 with thinking on; ${MESSAGES_THINKING_MIN_TOP_P} was sent`,
    );
  }
}
