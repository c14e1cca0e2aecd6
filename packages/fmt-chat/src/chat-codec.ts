import type { Codec } from "@interlingua/core-types";
import type { ChatRequestWire } from "./chat-api.js";
import { ChatStreamDecoder, decodeChatStream } from "./chat-stream-decoder.js";
import { ChatStreamEncoder, encodeChatStream } from "./chat-stream-encoder.js";
import { parseChatRequest } from "./parse-chat-request.js";
import { parseChatResponse } from "./parse-chat-response.js";
import { renderChatRequest } from "./render-chat-request.js";
import { type RenderedChatResponse, renderChatResponse } from "./render-chat-response.js";

/** The chat-completions codec: client format and OpenAI-protocol upstream alike. */
export const chat: Codec<ChatRequestWire, RenderedChatResponse> = {
  format: "chat",
  request: { parse: parseChatRequest, render: renderChatRequest },
  response: { parse: parseChatResponse, render: renderChatResponse },
  stream: {
    decode: decodeChatStream,
    encode: encodeChatStream,
    decoder: () => new ChatStreamDecoder(),
    encoder: (options) => new ChatStreamEncoder(options),
  },
};
