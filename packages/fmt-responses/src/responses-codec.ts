import type { Codec } from "@interlingua/core-types";
import { buildResponsesCodec } from "./build-responses-codec.js";
import { parseResponsesRequest } from "./parse-responses-request.js";
import { parseInterlinguaResponsesResponse } from "./parse-responses-response.js";
import { renderInterlinguaResponsesRequest } from "./render-responses-request.js";
import { renderInterlinguaResponsesResponse } from "./render-responses-response.js";
import type {
  InterlinguaResponsesRequestWire,
  InterlinguaResponsesResponseWire,
} from "./responses-api.js";

/**
 * docs/api-reference.md's own responses format (`POST /v1/responses` under the `{code, data}`
 * envelope) <-> the canonical model: the request with nested function tools and `max_tokens`, a
 * chat-like result (`choices[]`), and OpenAI's event stream. For OpenAI's real Responses API
 * (`output[]` items, what the SDKs speak) use `responses`.
 */
export const interlinguaResponses: Codec<
  InterlinguaResponsesRequestWire,
  InterlinguaResponsesResponseWire
> = buildResponsesCodec(
  "interlingua-responses",
  { parse: parseResponsesRequest, render: renderInterlinguaResponsesRequest },
  { parse: parseInterlinguaResponsesResponse, render: renderInterlinguaResponsesResponse },
);
