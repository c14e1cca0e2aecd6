import type { RenderOptions, Response } from "@interlingua/core-types";
import { GatewayError } from "@interlingua/errors";
import { errorFromResponsesWire } from "./map-responses-error.js";
import { parseResponsesObject } from "./parse-responses-response.js";

/**
 * Parses an OpenAI Responses object (`output[]` items, status, usage) to canonical; an `{error}`
 * body is thrown as the mapped `GatewayError` (an upstream's error, as `parseOpenAIError` reads
 * it).
 */
export function parseResponsesResponse(wire: unknown, options?: RenderOptions): Response {
  if (
    typeof wire === "object" &&
    wire !== null &&
    !Array.isArray((wire as Record<string, unknown>)["output"]) &&
    typeof (wire as Record<string, unknown>)["error"] === "object" &&
    (wire as Record<string, unknown>)["error"] !== null
  ) {
    throw new GatewayError({ ...errorFromResponsesWire(wire as Record<string, unknown>) });
  }
  return parseResponsesObject(wire, options);
}
