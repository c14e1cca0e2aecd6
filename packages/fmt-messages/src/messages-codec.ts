import type { Codec } from "@interlingua/core-types";
import { renderMessagesRequest } from "./convert-to-messages-request.js";
import type { MessagesRequestWire, MessagesResultWire } from "./messages-api.js";
import { decodeMessagesStream, MessagesStreamDecoder } from "./messages-stream-decoder.js";
import { encodeMessagesStream, MessagesStreamEncoder } from "./messages-stream-encoder.js";
import { parseMessagesRequest } from "./parse-messages-request.js";
import { parseMessagesResponse } from "./parse-messages-response.js";
import { renderMessagesResponse } from "./render-messages-response.js";

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
    decoder: () => {
      const decoder = new MessagesStreamDecoder();
      return { push: (message, emit) => decoder.push(message, emit), end: () => {} };
    },
    encoder: (options) => {
      const encoder = new MessagesStreamEncoder(options?.onWarning);
      return {
        push: (event, emit) => encoder.push(event, emit),
        end: (emit) => encoder.flush(emit),
      };
    },
  },
};
