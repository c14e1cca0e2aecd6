import type { RenderOptions, ThinkingConfig } from "@interlingua/core-types";
import { invalidField } from "@interlingua/errors";
import type { NativeThinkingConfig } from "./native-api.js";

/** thinkingBudget's two special values; any positive value is a token budget. */
const budgetByType: Readonly<Record<ThinkingConfig["type"], number | undefined>> = {
  enabled: undefined,
  disabled: 0,
  adaptive: -1,
};

/** Models before the 3.x family take a budget; later ones a level (they refuse both at once). */
const budgetFamily = /(?:^|[^0-9.])[12]\.\d/;

/** Whether a model takes only a thinking budget (before 3.x), never a level. */
export const takesThinkingBudget = (model: string): boolean => budgetFamily.test(model);

/**
 * A budget for an effort, for the models that take no level ("Thinking level is not supported for
 * this model"): each within every 2.5 model's range (Pro 128 to 32768, Flash 0 to 24576, Flash-Lite
 * 512 to 24576), and read back as the same effort where `effortForBudget` can tell them apart.
 */
export const NATIVE_EFFORT_BUDGET = {
  minimal: 512,
  low: 2048,
  medium: 8192,
  high: 24576,
} as const;

/**
 * thinkingConfig -> canonical: budget 0 is "disabled", -1 is "adaptive" (dynamic), a positive
 * budget is "enabled" with that budget; a level is the canonical effort. The upstream refuses a
 * budget and a level together, so parse does too.
 */
export function parseNativeThinkingConfig(
  config: NativeThinkingConfig,
  path: readonly PropertyKey[],
): ThinkingConfig {
  const { thinkingBudget: budget, thinkingLevel: level, includeThoughts } = config;
  if (budget !== undefined && level !== undefined) {
    throw invalidField(path, "set thinkingBudget or thinkingLevel, not both");
  }
  const thinking: ThinkingConfig = {
    type: budget === 0 ? "disabled" : budget === -1 ? "adaptive" : "enabled",
  };
  if (budget !== undefined && budget > 0) thinking.budgetTokens = budget;
  if (level !== undefined) thinking.effort = level;
  if (includeThoughts !== undefined) thinking.includeThoughts = includeThoughts;
  return thinking;
}

export function renderNativeThinkingConfig(
  thinking: ThinkingConfig,
  model: string,
  options?: RenderOptions,
): NativeThinkingConfig {
  let budget = thinking.type === "enabled" ? thinking.budgetTokens : budgetByType[thinking.type];
  let level = thinking.effort;
  if (thinking.type !== "enabled" && thinking.budgetTokens !== undefined) {
    options?.onWarning?.({
      type: "dropped",
      feature: "thinking.budgetTokens",
      message: `a budget means nothing with thinking "${thinking.type}"`,
    });
  }
  if (budget !== undefined && level !== undefined) {
    const keepBudget = takesThinkingBudget(model);
    options?.onWarning?.({
      type: "dropped",
      feature: keepBudget ? "thinking.effort" : "thinking.budgetTokens",
      message: `the upstream refuses thinkingBudget and thinkingLevel together; ${model} takes ${keepBudget ? "a budget" : "a level"}`,
    });
    if (keepBudget) level = undefined;
    else budget = undefined;
  }
  if (level !== undefined && budget === undefined && takesThinkingBudget(model)) {
    options?.onWarning?.({
      type: "mapped",
      feature: "thinking.effort",
      message: `${model} takes a thinking budget, not a level: effort ${level} is a budget of ${NATIVE_EFFORT_BUDGET[level]}`,
    });
    budget = NATIVE_EFFORT_BUDGET[level];
    level = undefined;
  }
  const config: NativeThinkingConfig = {};
  if (budget !== undefined) config.thinkingBudget = budget;
  if (level !== undefined) config.thinkingLevel = level;
  if (thinking.includeThoughts !== undefined) config.includeThoughts = thinking.includeThoughts;
  return config;
}
