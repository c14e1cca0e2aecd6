import type { ToolNameRule } from "@interlingua/core-types";

/** OpenAI's function names (chat and Responses): letters, digits, `_` and `-`, at most 64. */
export const OPENAI_TOOL_NAME_RULE: ToolNameRule = {
  valid: /^[a-zA-Z0-9_-]{1,64}$/,
  invalid: /[^a-zA-Z0-9_-]/g,
  max: 64,
};
