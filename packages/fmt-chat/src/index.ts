// The documented surface: the codec and its parse/render/stream functions. The tables and
// mapping helpers the README lists are at `./tables`, wire schemas at `./schemas`, shared
// internals at `./internal`.
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
export { chat } from "./chat-codec.js";
export type { Base64Data } from "./chat-data-uri.js";
export type {
  ChatReasoningDetail,
  ChatReasoningDetailOut,
  ChatThinkingBlock,
} from "./chat-reasoning-details.js";
export type { RenderedChatUsage } from "./map-chat-usage.js";
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
