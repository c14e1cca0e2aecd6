// Internals other @interlingua packages and the gateway share: helpers and constants below the
// documented surface. Not covered by semver: any minor release may change or remove them.
export { fromMessagesCacheControl, toMessagesCacheControl } from "./messages-cache-control.js";
export {
  MESSAGES_DEFAULT_THINKING_BUDGET,
  MESSAGES_FALLBACK_MAX_TOKENS,
  MESSAGES_MIN_THINKING_BUDGET,
} from "./messages-model-defaults.js";
export { THINKING_DISPLAY_TO_INCLUDE } from "./parse-messages-request.js";
export { parseMessagesBlock } from "./parse-messages-response.js";
export { EFFORT_TO_MESSAGES, MESSAGES_WEB_SEARCH_TOOL } from "./render-messages-request.js";
export { argumentsObject } from "./render-messages-response.js";
export { continuesUnsignedToolTurn } from "./unsigned-tool-turn.js";
