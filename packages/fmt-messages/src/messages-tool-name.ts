import type { ToolNameRule } from "@interlingua/core-types";

/** Anthropic's tool names: letters, digits, `_` and `-`, at most 64 (the shared, safe bound). */
export const MESSAGES_TOOL_NAME_RULE: ToolNameRule = {
  valid: /^[a-zA-Z0-9_-]{1,64}$/,
  invalid: /[^a-zA-Z0-9_-]/g,
  max: 64,
};
