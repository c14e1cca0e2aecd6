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
export { parseChatCacheControl, renderChatCacheControl } from "./chat-cache-control.js";
export { chat } from "./chat-codec.js";
export { type Base64Data, formatDataUri, parseDataUri } from "./chat-data-uri.js";
export type {
  ChatReasoningDetail,
  ChatReasoningDetailOut,
  ChatThinkingBlock,
} from "./chat-reasoning-details.js";
export {
  chatPassThroughShape,
  chatRequestFields,
  untranslatedChatFields,
} from "./chat-request-fields.js";
export { OPENAI_TOOL_NAME_RULE } from "./chat-tool-name.js";
export { isChatUsageOnlyChunk } from "./chat-usage-only-chunk.js";
export { formatChatPath, invalidChatField, invalidChatInput } from "./invalid-chat-input.js";
export {
  chatToUnifiedFinishReason,
  isChatFinishReason,
  parseChatFinishReason,
  renderChatFinishReason,
  unifiedToChatFinishReason,
} from "./map-chat-finish-reason.js";
export {
  parseChatReasoningEffort,
  renderChatReasoningEffort,
} from "./map-chat-reasoning-effort.js";
export { parseChatToolChoice, renderChatToolChoice } from "./map-chat-tool-choice.js";
export { parseChatUsage, type RenderedChatUsage, renderChatUsage } from "./map-chat-usage.js";
export { chatRequestToCanonical, parseChatRequest } from "./parse-chat-request.js";
export { chatResponseToCanonical, parseChatResponse } from "./parse-chat-response.js";
export { ChatStreamDecoder, decodeChatMessages, decodeChatStream } from "./parse-chat-stream.js";
export { type ChatRenderOptions, renderChatRequest } from "./render-chat-request.js";
export {
  type RenderedChatChoice,
  type RenderedChatMessage,
  type RenderedChatResponse,
  renderChatResponse,
} from "./render-chat-response.js";
export {
  type ChatDeltaOut,
  ChatStreamEncoder,
  type ChatToolCallDeltaOut,
  encodeChatEvents,
  encodeChatStream,
} from "./render-chat-stream.js";
