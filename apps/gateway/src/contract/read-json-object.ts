import { parseWireJson } from "@interlingua/core-types";
import { type GatewayError, invalidRequest, payloadTooLarge } from "@interlingua/errors";
import { type BodyReadResult, readBodyCapped } from "./read-body.ts";

export type JsonObject = Record<string, unknown>;

export type JsonObjectResult = { ok: true; body: JsonObject } | { ok: false; error: GatewayError };

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A JSON request body that must be an object, read up to `limit` bytes: 413 past the cap, 400
 * for an unreadable body, text that is not JSON, or JSON that is not an object. The caller
 * renders the refusal in its endpoint's envelope.
 */
export async function readJsonObject(request: Request, limit: number): Promise<JsonObjectResult> {
  return parseJsonObject(await readBodyCapped(request, limit));
}

/** `readJsonObject` from a body already read (capped), whichever server read it. */
export function parseJsonObject(read: BodyReadResult): JsonObjectResult {
  if (!read.ok) {
    return {
      ok: false,
      error:
        read.kind === "too-large"
          ? payloadTooLarge(`request body exceeds ${read.limit} bytes`)
          : invalidRequest("request body could not be read"),
    };
  }
  let wire: unknown;
  try {
    // Tool arguments keep their numbers exactly (core-types json-exact.ts).
    wire = parseWireJson(read.text);
  } catch {
    return { ok: false, error: invalidRequest("request body is not valid JSON") };
  }
  if (!isObject(wire)) {
    return { ok: false, error: invalidRequest("request body must be a JSON object") };
  }
  return { ok: true, body: wire };
}
