import type { Codec } from "@interlingua/core-types";
import { decodeResponsesStream, ResponsesStreamDecoder } from "./parse-responses-stream.js";
import { encodeResponsesStream, ResponsesStreamEncoder } from "./render-responses-stream.js";
import { responsesStreamFrames } from "./responses-stream-frames.js";

/**
 * A codec over OpenAI's Responses event stream. `responses` and `interlinguaResponses` differ
 * only in their name and request/response mapping; the stream is one event sequence for both.
 */
export function buildResponsesCodec<RequestWire, ResponseWire>(
  format: string,
  request: Codec<RequestWire, ResponseWire>["request"],
  response: Codec<RequestWire, ResponseWire>["response"],
): Codec<RequestWire, ResponseWire> {
  return {
    format,
    request,
    response,
    stream: {
      decode: decodeResponsesStream,
      encode: encodeResponsesStream,
      decoder: () => new ResponsesStreamDecoder(),
      encoder: (options) => new ResponsesStreamEncoder(options),
      frames: responsesStreamFrames,
    },
  };
}
