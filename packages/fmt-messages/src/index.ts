// The documented surface: the codec, its parse/render/stream functions and the tables the
// README describes. Wire schemas are at `./schemas`, shared internals at `./internal`.
export type {
  Codec,
  Message,
  Part,
  RenderOptions,
  Request,
  Response,
  StreamEvent,
  Tool,
  Usage,
  Warning,
} from "@interlingua/core-types";
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
  parseMessagesStopReason,
  renderMessagesStopReason,
  UNIFIED_TO_MESSAGES_STOP_REASON,
} from "./map-messages-finish-reason.js";
export { messages } from "./messages-codec.js";
export {
  type AnthropicErrorBody,
  type MessagesErrorEnvelope,
  type MessagesErrorOptions,
  type MessagesErrorVariant,
  parseMessagesError,
  renderMessagesError,
  type ServiceErrorBody,
} from "./messages-error-envelope.js";
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
  type MessagesUsageFields,
  parseMessagesUsage,
  renderMessagesUsage,
} from "./messages-usage.js";
export { parseAnthropicError } from "./parse-anthropic-error.js";
export { parseMessagesRequest } from "./parse-messages-request.js";
export { parseMessagesResponse } from "./parse-messages-response.js";
export { decodeMessagesStream, MessagesStreamDecoder } from "./parse-messages-stream.js";
export { renderMessagesRequest } from "./render-messages-request.js";
export { renderMessagesResponse } from "./render-messages-response.js";
export { encodeMessagesStream, MessagesStreamEncoder } from "./render-messages-stream.js";
export {
  MESSAGES_JSON_OBJECT_INSTRUCTION,
  messagesOutputSchema,
  renderOutputFormat,
} from "./render-output-format.js";
