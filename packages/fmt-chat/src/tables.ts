// The tables and mapping helpers below the codec: finish reasons, usage, tool choice, reasoning
// effort, cache control, data URIs, the request field table, the tool-name rule and the error
// helpers. Documented in the README and covered by semver like the main entry.
export { parseChatCacheControl, renderChatCacheControl } from "./chat-cache-control.js";
export { type Base64Data, formatDataUri, parseDataUri } from "./chat-data-uri.js";
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
