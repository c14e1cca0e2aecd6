import type { Codec } from "@interlingua/core-types";
import { buildResponsesCodec } from "./build-responses-codec.js";
import { parseResponsesResponse } from "./parse-responses-api-response.js";
import { parseResponsesRequest } from "./parse-responses-request.js";
import { renderResponsesRequest } from "./render-responses-api-request.js";
import { renderResponsesResponse } from "./render-responses-api-response.js";
import type { ResponsesRequestWire, ResponsesResponseWire } from "./responses-api-wire.js";

/**
 * OpenAI's real Responses API (`POST /v1/responses` as the official SDKs speak it) <-> the
 * canonical model. Requests parse in either shape and render in OpenAI's; results are Responses
 * objects (`output[]`); the stream is OpenAI's event sequence, the same one
 * `interlinguaResponses` uses.
 */
export const responses: Codec<ResponsesRequestWire, ResponsesResponseWire> = buildResponsesCodec(
  "responses",
  { parse: parseResponsesRequest, render: renderResponsesRequest },
  { parse: parseResponsesResponse, render: renderResponsesResponse },
);
