import type { Codec } from "@interlingua/core-types";
import { buildResponsesCodec } from "./build-responses-codec.js";
import { parseResponsesRequest } from "./parse-responses-request.js";
import { parseResponsesResponse } from "./parse-responses-response.js";
import { renderResponsesRequest } from "./render-responses-request.js";
import { renderResponsesResponse } from "./render-responses-response.js";
import type { ResponsesRequestWire, ResponsesResponseWire } from "./responses-api.js";

/** docs/api-reference.md's responses format (`POST /v1/responses`) <-> the canonical model. */
export const responses: Codec<ResponsesRequestWire, ResponsesResponseWire> = buildResponsesCodec(
  "responses",
  { parse: parseResponsesRequest, render: renderResponsesRequest },
  { parse: parseResponsesResponse, render: renderResponsesResponse },
);
