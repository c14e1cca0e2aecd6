import { parseWireJson } from "@interlingua/core-types";
import { type GatewayError, invalidRequest, payloadTooLarge } from "@interlingua/errors";
import { type BodyReadFailure, type BodyReadResult, readBodyCapped } from "./read-body.ts";

export type JsonObject = Record<string, unknown>;

export type JsonObjectResult = { ok: true; body: JsonObject } | { ok: false; error: GatewayError };

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A body that could not be read, as its refusal: 413 past the cap, 400 when it broke off. */
const unreadBody = (failure: BodyReadFailure): GatewayError =>
  failure.kind === "too-large"
    ? payloadTooLarge(`request body exceeds ${failure.limit} bytes`)
    : invalidRequest("request body could not be read");

/** The body's text, read up to `limit` bytes; the refusal is thrown (see `unreadBody`). */
export async function readBodyText(request: Request, limit: number): Promise<string> {
  const read = await readBodyCapped(request, limit);
  if (!read.ok) throw unreadBody(read);
  return read.text;
}

/**
 * A JSON request body that must be an object, read up to `limit` bytes: 413 past the cap, 400
 * for an unreadable body, text that is not JSON, or JSON that is not an object. The refusal is
 * thrown, for the app's error handler to answer in the route's envelope.
 */
export async function readJsonObject(request: Request, limit: number): Promise<JsonObject> {
  const read = parseJsonObject(await readBodyCapped(request, limit));
  if (!read.ok) throw read.error;
  return read.body;
}

/** `readJsonObject` from a body already read (capped), whichever server read it. */
export function parseJsonObject(read: BodyReadResult): JsonObjectResult {
  if (!read.ok) return { ok: false, error: unreadBody(read) };
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
