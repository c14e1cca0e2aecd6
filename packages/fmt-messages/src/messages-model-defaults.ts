/**
 * Model-family rules the Anthropic protocol needs but the canonical model does not carry. Model
 * ids match both the spec's gateway ids (`txtB-opus-4-8`) and upstream names
 * (`claude-opus-4-5-20251101`), so the patterns look at the family and version only.
 */

/** Default `max_tokens` (Anthropic requires it) by family: the family's output ceiling. */
export const MESSAGES_DEFAULT_MAX_TOKENS: readonly (readonly [RegExp, number])[] = [
  [/claude-3-(haiku|opus|sonnet)/, 4096],
  [/3-5-(sonnet|haiku)/, 8192],
  [/3-7-sonnet/, 64000],
  [/opus-4-([5-9]|[1-9]\d)(?!\d)/, 64000],
  [/opus-4/, 32000],
  [/(opus|sonnet|haiku)-[4-9]/, 64000],
];
/** For models no pattern knows. */
export const MESSAGES_FALLBACK_MAX_TOKENS = 4096;

export function defaultMaxTokens(model: string): number {
  for (const [pattern, tokens] of MESSAGES_DEFAULT_MAX_TOKENS) {
    if (pattern.test(model)) return tokens;
  }
  return MESSAGES_FALLBACK_MAX_TOKENS;
}

/** Models that refuse `thinking: {type: "enabled"}` and only take adaptive thinking. */
export const MESSAGES_ADAPTIVE_ONLY_MODELS: readonly RegExp[] = [
  /opus-4-([7-9]|[1-9]\d)(?!\d)/,
  /mythos/,
];

export function requiresAdaptiveThinking(model: string): boolean {
  return MESSAGES_ADAPTIVE_ONLY_MODELS.some((pattern) => pattern.test(model));
}

/**
 * Models that accept `output_config.effort` (Anthropic's effort docs: Opus 4.5, Opus 4.6 and Sonnet
 * 4.6 took it first; later Opus and Sonnet versions, and the adaptive-only models, take it too).
 * Others (Sonnet 4.5, Haiku, Opus 4.1 and older, unknown names) refuse the field: an effort
 * translated from another format then reaches them only as a thinking budget.
 */
export const MESSAGES_EFFORT_MODELS: readonly RegExp[] = [
  /opus-4-([5-9]|[1-9]\d)(?!\d)/,
  /sonnet-4-([6-9]|[1-9]\d)(?!\d)/,
  /(opus|sonnet)-([5-9]|[1-9]\d)(?!\d)/,
  /mythos/,
];

export function acceptsEffort(model: string): boolean {
  return MESSAGES_EFFORT_MODELS.some((pattern) => pattern.test(model));
}

/** A thinking budget for an effort level, when a budget is required but only effort was given. */
export const MESSAGES_EFFORT_BUDGET = {
  minimal: 1024,
  low: 4096,
  medium: 10000,
  high: 24576,
} as const;
/** Budget when neither a budget nor an effort was given. */
export const MESSAGES_DEFAULT_THINKING_BUDGET = MESSAGES_EFFORT_BUDGET.medium;
/** Anthropic's smallest accepted budget_tokens. */
export const MESSAGES_MIN_THINKING_BUDGET = 1024;
/** Anthropic's highest temperature (OpenAI's and Gemini's go to 2). */
export const MESSAGES_MAX_TEMPERATURE = 1;
