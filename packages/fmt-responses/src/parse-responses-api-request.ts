import type { Request } from "@interlingua/core-types";
import { parseResponsesRequest } from "./parse-responses-request.js";

/**
 * Parses an OpenAI Responses API body. A body is unambiguous between the spec's shape and
 * OpenAI's (nested or flat function tools, `max_tokens` or `max_output_tokens`), so both codecs
 * take both; this is the same parser under the API codec's name.
 */
export function parseResponsesApiRequest(wire: unknown): Request {
  return parseResponsesRequest(wire);
}
