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
export * from "./chat-api.js";
export { parseChatCacheControl, renderChatCacheControl } from "./chat-cache-control.js";
export { chat } from "./chat-codec.js";
export { type Base64Data, formatDataUri, isHttpUrl, parseDataUri } from "./chat-data-uri.js";
export {
  type ChatReasoningDetail,
  type ChatReasoningDetailOut,
  type ChatThinkingBlock,
  chatReasoningDetailSchema,
  chatThinkingBlockSchema,
  parseReasoningDetails,
  renderReasoningDetails,
} from "./chat-reasoning-details.js";
export {
  chatPassThroughShape,
  chatRequestFields,
  untranslatedChatFields,
} from "./chat-request-fields.js";
export { ChatStreamDecoder, decodeChatMessages, decodeChatStream } from "./chat-stream-decoder.js";
export {
  type ChatDeltaOut,
  ChatStreamEncoder,
  type ChatToolCallDeltaOut,
  encodeChatEvents,
  encodeChatStream,
} from "./chat-stream-encoder.js";
export { isChatUsageOnlyChunk } from "./chat-usage-only-chunk.js";
export { formatChatPath, invalidChatField, invalidChatInput } from "./invalid-chat-input.js";
export {
  chatToUnifiedFinishReason,
  isChatFinishReason,
  isFinishReasonMapped,
  parseChatFinishReason,
  renderChatFinishReason,
  unifiedToChatFinishReason,
} from "./map-chat-finish-reason.js";
export {
  effortForBudget,
  parseChatReasoningEffort,
  renderChatReasoningEffort,
} from "./map-chat-reasoning-effort.js";
export { parseChatToolChoice, renderChatToolChoice } from "./map-chat-tool-choice.js";
export {
  parseChatUsage,
  type RenderedChatUsage,
  renderChatUsage,
  usageFieldsChatDrops,
} from "./map-chat-usage.js";
export { normalizeChatRequest } from "./normalize-chat-request.js";
export { normalizeChatResponse } from "./normalize-chat-response.js";
export { chatRequestToCanonical, parseChatRequest } from "./parse-chat-request.js";
export { chatResponseToCanonical, parseChatResponse } from "./parse-chat-response.js";
export {
  type ChatRenderOptions,
  chatMaxStopSequences,
  renderChatRequest,
} from "./render-chat-request.js";
export {
  type RenderedChatChoice,
  type RenderedChatMessage,
  type RenderedChatResponse,
  renderChatResponse,
} from "./render-chat-response.js";
