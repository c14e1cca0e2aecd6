import { effortForBudget, type RenderOptions, type ThinkingConfig } from "@interlingua/core-types";

const efforts: Readonly<Record<string, ThinkingConfig>> = {
  none: { type: "disabled" },
  minimal: { type: "enabled", effort: "minimal" },
  low: { type: "enabled", effort: "low" },
  medium: { type: "enabled", effort: "medium" },
  high: { type: "enabled", effort: "high" },
};

/**
 * `reasoning_effort` -> canonical thinking. Undefined for a value the canonical model has no
 * place for (OpenAI adds levels over time, such as `xhigh`): the caller keeps it in extras so it
 * still reaches a chat upstream unchanged.
 */
export function parseChatReasoningEffort(effort: string): ThinkingConfig | undefined {
  const found = Object.hasOwn(efforts, effort) ? efforts[effort] : undefined;
  return found === undefined ? undefined : { ...found };
}

/** Canonical thinking -> `reasoning_effort`, or undefined for "the model's default". */
export function renderChatReasoningEffort(
  thinking: ThinkingConfig,
  options: RenderOptions | undefined,
): string | undefined {
  const warn = options?.onWarning;
  if (thinking.includeThoughts !== undefined) {
    warn?.({
      type: "dropped",
      feature: "thinking.includeThoughts",
      message:
        "chat has no switch for returning thoughts; reasoning_content is returned when the model produces it",
    });
  }
  if (thinking.type === "disabled") return "none";
  if (thinking.type === "adaptive") {
    warn?.({
      type: "mapped",
      feature: "thinking.type",
      message: "adaptive thinking is sent as no reasoning_effort (the model's default)",
    });
    return undefined;
  }
  if (thinking.effort !== undefined) {
    if (thinking.budgetTokens !== undefined) {
      warn?.({
        type: "dropped",
        feature: "thinking.budgetTokens",
        message: "chat takes reasoning_effort only; the token budget was dropped",
      });
    }
    return thinking.effort;
  }
  if (thinking.budgetTokens !== undefined) {
    const effort = effortForBudget(thinking.budgetTokens);
    warn?.({
      type: "mapped",
      feature: "thinking.budgetTokens",
      message: `a thinking budget of ${thinking.budgetTokens} tokens is sent as reasoning_effort "${effort}"`,
    });
    return effort;
  }
  return undefined;
}
