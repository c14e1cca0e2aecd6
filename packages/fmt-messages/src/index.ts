// The documented surface: the codec, its parse/render/stream functions and the error envelope's
// pair. The tables and model rules the README lists are at `./tables`, wire schemas at
// `./schemas`, shared internals at `./internal`.
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
export type { MessagesStopReason } from "./map-messages-finish-reason.js";
export type { MessagesUsageFields } from "./map-messages-usage.js";
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
export type { MessagesErrorType } from "./messages-error-type.js";
export { parseAnthropicError } from "./parse-anthropic-error.js";
export { parseMessagesRequest } from "./parse-messages-request.js";
export { parseMessagesResponse } from "./parse-messages-response.js";
export { decodeMessagesStream, MessagesStreamDecoder } from "./parse-messages-stream.js";
export { renderMessagesRequest } from "./render-messages-request.js";
export { renderMessagesResponse } from "./render-messages-response.js";
export { encodeMessagesStream, MessagesStreamEncoder } from "./render-messages-stream.js";
