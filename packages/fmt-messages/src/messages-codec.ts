import type { Codec } from "@interlingua/core-types";
import type { MessagesRequestWire, MessagesResultWire } from "./messages-api.js";
import { messagesStreamFrames } from "./messages-stream-frames.js";
import { parseMessagesRequest } from "./parse-messages-request.js";
import { parseMessagesResponse } from "./parse-messages-response.js";
import { decodeMessagesStream, MessagesStreamDecoder } from "./parse-messages-stream.js";
import { renderMessagesRequest } from "./render-messages-request.js";
import { renderMessagesResponse } from "./render-messages-response.js";
import { encodeMessagesStream, MessagesStreamEncoder } from "./render-messages-stream.js";

/**
 * The messages format (Anthropic Messages API) as a Codec: the client format of
 * `POST /v1/messages` and the upstream protocol of Anthropic channels.
 */
export const messages: Codec<MessagesRequestWire, MessagesResultWire> = {
  format: "messages",
  request: { parse: parseMessagesRequest, render: renderMessagesRequest },
  response: { parse: parseMessagesResponse, render: renderMessagesResponse },
  stream: {
    decode: decodeMessagesStream,
    encode: encodeMessagesStream,
    decoder: () => new MessagesStreamDecoder(),
    encoder: (options) => new MessagesStreamEncoder(options?.onWarning, options?.requestId),
    frames: messagesStreamFrames,
  },
};
