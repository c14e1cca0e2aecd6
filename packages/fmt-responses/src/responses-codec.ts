import type { Codec } from "@interlingua/core-types";
import { parseResponsesRequest } from "./parse-responses-request.js";
import { parseResponsesResponse } from "./parse-responses-response.js";
import { renderResponsesRequest } from "./render-responses-request.js";
import { renderResponsesResponse } from "./render-responses-response.js";
import type { ResponsesRequestWire, ResponsesResponseWire } from "./responses-api.js";
import { decodeResponsesStream, ResponsesStreamDecoder } from "./responses-stream-decoder.js";
import { encodeResponsesStream, ResponsesStreamEncoder } from "./responses-stream-encoder.js";

/** SPEC.md's responses format (`POST /v1/responses`) <-> the canonical model. */
export const responses: Codec<ResponsesRequestWire, ResponsesResponseWire> = {
  format: "responses",
  request: { parse: parseResponsesRequest, render: renderResponsesRequest },
  response: { parse: parseResponsesResponse, render: renderResponsesResponse },
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
