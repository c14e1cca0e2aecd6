// The tables and rules below the codec: stop reasons, usage, error types and statuses, model
// defaults, thinking constraints, output formats, extras keys, the request field table, the
// tool-name rule and tool-call ids. Documented in the README and covered by semver like the
// main entry.
export {
  derivedThinkingBudget,
  fitThinkingConstraints,
  MESSAGES_THINKING_MIN_TOP_P,
  messagesAnswerRoom,
} from "./fit-thinking-constraints.js";
export { messagesErrorStatus, messagesErrorType } from "./map-messages-error-type.js";
export {
  MESSAGES_STOP_REASONS,
  type MessagesStopReason,
  parseMessagesFinishReason,
  renderMessagesFinishReason,
  UNIFIED_TO_MESSAGES_STOP_REASON,
} from "./map-messages-finish-reason.js";
export {
  type ParsedMessagesToolChoice,
  parseMessagesToolChoice,
  renderMessagesToolChoice,
} from "./map-messages-tool-choice.js";
export {
  type MessagesUsageFields,
  parseMessagesUsage,
  renderMessagesUsage,
} from "./map-messages-usage.js";
export { isAnthropicErrorCode } from "./messages-error-envelope.js";
export {
  gatewayStatusForMessagesErrorType,
  httpStatusOfMessagesErrorType,
  type MessagesErrorType,
  messagesErrorTypeFor,
  messagesErrorTypes,
} from "./messages-error-type.js";
export { MESSAGES_EXTRAS, MESSAGES_SHAPE_EXTRAS } from "./messages-extras.js";
export {
  defaultMaxTokens,
  MESSAGES_ADAPTIVE_ONLY_MODELS,
  MESSAGES_DEFAULT_MAX_TOKENS,
  MESSAGES_EFFORT_BUDGET,
  MESSAGES_MAX_TEMPERATURE,
  requiresAdaptiveThinking,
} from "./messages-model-defaults.js";
export {
  messagesPassThroughShape,
  messagesRequestFields,
  untranslatedMessagesFields,
} from "./messages-request-fields.js";
export { MESSAGES_TOOL_CALL_ID, toMessagesToolCallId } from "./messages-tool-call-id.js";
export { MESSAGES_TOOL_NAME_RULE } from "./messages-tool-name.js";
export {
  MESSAGES_JSON_OBJECT_INSTRUCTION,
  messagesOutputSchema,
  renderOutputFormat,
} from "./render-output-format.js";
