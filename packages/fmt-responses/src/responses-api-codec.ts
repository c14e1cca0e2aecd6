import type { Codec } from "@interlingua/core-types";
import { buildResponsesCodec } from "./build-responses-codec.js";
import { parseResponsesApiRequest } from "./parse-responses-api-request.js";
import { parseResponsesApiResponse } from "./parse-responses-api-response.js";
import { renderResponsesApiRequest } from "./render-responses-api-request.js";
import { renderResponsesApiResponse } from "./render-responses-api-response.js";
import type { ResponsesApiRequestWire, ResponsesApiResponseWire } from "./responses-api-wire.js";

/**
 * OpenAI's real Responses API (`POST /v1/responses` as the official SDKs speak it) <-> the
 * canonical model. Requests parse in either shape and render in OpenAI's; results are Responses
 * objects (`output[]`); the stream is OpenAI's event sequence, the same one `responses` uses.
 */
export const responsesApi: Codec<ResponsesApiRequestWire, ResponsesApiResponseWire> =
  buildResponsesCodec(
    "responses-api",
    { parse: parseResponsesApiRequest, render: renderResponsesApiRequest },
    { parse: parseResponsesApiResponse, render: renderResponsesApiResponse },
  );
