import type { ToolNameRule } from "@interlingua/core-types";

/**
 * Gemini's function names: at most 64 characters, starting with a letter or `_`; the gateway
 * keeps to letters, digits, `_` and `-`, which every Gemini model accepts.
 */
export const NATIVE_TOOL_NAME_RULE: ToolNameRule = {
  valid: /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/,
  invalid: /[^a-zA-Z0-9_-]/g,
  start: /^[a-zA-Z_]/,
  max: 64,
};
