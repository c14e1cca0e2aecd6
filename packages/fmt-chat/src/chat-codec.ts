import type { Codec } from "@interlingua/core-types";
import type { ChatRequestWire } from "./chat-api.js";
import { chatStreamFrames } from "./chat-stream-frames.js";
import { parseChatRequest } from "./parse-chat-request.js";
import { parseChatResponse } from "./parse-chat-response.js";
import { ChatStreamDecoder, decodeChatStream } from "./parse-chat-stream.js";
import { renderChatRequest } from "./render-chat-request.js";
import { type RenderedChatResponse, renderChatResponse } from "./render-chat-response.js";
import { ChatStreamEncoder, encodeChatStream } from "./render-chat-stream.js";

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
    frames: chatStreamFrames,
  },
};
