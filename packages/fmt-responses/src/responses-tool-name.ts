import type { ToolNameRule } from "@interlingua/core-types";

/** The Responses API's function names: letters, digits, `_` and `-`, at most 64 (as chat's). */
export const RESPONSES_TOOL_NAME_RULE: ToolNameRule = {
  valid: /^[a-zA-Z0-9_-]{1,64}$/,
  invalid: /[^a-zA-Z0-9_-]/g,
  max: 64,
};
