// The canonical types a user names when handling this codec's input and output.
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
export { base64ToText, parseDataUrl, textToBase64 } from "./base64-text.js";
export {
  EFFORT_TO_MESSAGES,
  MESSAGES_WEB_SEARCH_TOOL,
  renderMessagesRequest,
} from "./convert-to-messages-request.js";
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
  mapMessagesStopReason,
  toMessagesStopReason,
  UNIFIED_TO_MESSAGES_STOP_REASON,
} from "./map-messages-finish-reason.js";
export * from "./messages-api.js";
export { fromMessagesCacheControl, toMessagesCacheControl } from "./messages-cache-control.js";
export { messages } from "./messages-codec.js";
export { MESSAGES_EXTRAS, MESSAGES_SHAPE_EXTRAS } from "./messages-extras.js";
export {
  defaultMaxTokens,
  MESSAGES_ADAPTIVE_ONLY_MODELS,
  MESSAGES_DEFAULT_MAX_TOKENS,
  MESSAGES_DEFAULT_THINKING_BUDGET,
  MESSAGES_EFFORT_BUDGET,
  MESSAGES_FALLBACK_MAX_TOKENS,
  MESSAGES_MIN_THINKING_BUDGET,
  requiresAdaptiveThinking,
} from "./messages-model-defaults.js";
export {
  messagesPassThroughShape,
  messagesRequestFields,
  untranslatedMessagesFields,
} from "./messages-request-fields.js";
export { decodeMessagesStream, MessagesStreamDecoder } from "./messages-stream-decoder.js";
export { encodeMessagesStream, MessagesStreamEncoder } from "./messages-stream-encoder.js";
export { MESSAGES_TOOL_CALL_ID, toMessagesToolCallId } from "./messages-tool-call-id.js";
export { fromMessagesUsage, type MessagesUsageFields, toMessagesUsage } from "./messages-usage.js";
export { normalizeMessagesRequest, normalizeMessagesResponse } from "./normalize-messages.js";
export { parseMessagesRequest, THINKING_DISPLAY_TO_INCLUDE } from "./parse-messages-request.js";
export { parseMessagesBlock, parseMessagesResponse } from "./parse-messages-response.js";
export { argumentsObject, renderMessagesResponse } from "./render-messages-response.js";
export {
  MESSAGES_JSON_OBJECT_INSTRUCTION,
  messagesOutputSchema,
  renderOutputFormat,
} from "./render-output-format.js";
export { continuesUnsignedToolTurn } from "./unsigned-tool-turn.js";
