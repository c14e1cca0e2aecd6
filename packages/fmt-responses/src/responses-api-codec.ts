import type { Codec } from "@interlingua/core-types";
import { parseResponsesApiRequest } from "./parse-responses-api-request.js";
import { parseResponsesApiResponse } from "./parse-responses-api-response.js";
import { renderResponsesApiRequest } from "./render-responses-api-request.js";
import { renderResponsesApiResponse } from "./render-responses-api-response.js";
import type { ResponsesApiRequestWire, ResponsesApiResponseWire } from "./responses-api-wire.js";
import { decodeResponsesStream, ResponsesStreamDecoder } from "./responses-stream-decoder.js";
import { encodeResponsesStream, ResponsesStreamEncoder } from "./responses-stream-encoder.js";

/**
 * OpenAI's real Responses API (`POST /v1/responses` as the official SDKs speak it) <-> the
 * canonical model. Requests parse in either shape and render in OpenAI's; results are Responses
 * objects (`output[]`); the stream is OpenAI's event sequence, the same one `responses` uses.
 */
export const responsesApi: Codec<ResponsesApiRequestWire, ResponsesApiResponseWire> = {
  format: "responses-api",
  request: { parse: parseResponsesApiRequest, render: renderResponsesApiRequest },
  response: { parse: parseResponsesApiResponse, render: renderResponsesApiResponse },
  stream: {
    decode: decodeResponsesStream,
    encode: encodeResponsesStream,
    decoder: () => {
      const decoder = new ResponsesStreamDecoder();
      return {
        push: (message, emit) => decoder.push(message, emit),
        end: (emit) => decoder.finish(emit),
      };
    },
    encoder: (options) => {
      const encoder = new ResponsesStreamEncoder(options);
      return {
        push: (event, emit) => encoder.push(event, emit),
        end: (emit) => encoder.finish(emit),
      };
    },
  },
};
