import { findTooDeep, MAX_JSON_DEPTH, parseWireJson } from "@interlingua/core-types";
import { type GatewayError, invalidRequest, payloadTooLarge } from "@interlingua/errors";
import { type BodyReadFailure, type BodyReadResult, readBodyCapped } from "./read-body.ts";

export type JsonObject = Record<string, unknown>;

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
  return parseJsonObject(await readBodyCapped(request, limit));
}

/** `readJsonObject` from a body already read (capped), whichever server read it. */
export function parseJsonObject(read: BodyReadResult): JsonObject {
  if (!read.ok) throw unreadBody(read);
  let wire: unknown;
  try {
    // Tool arguments keep their numbers exactly (core-types json-exact.ts).
    wire = parseWireJson(read.text);
  } catch {
    throw invalidRequest("request body is not valid JSON");
  }
  if (!isObject(wire)) throw invalidRequest("request body must be a JSON object");
  return wire;
}

/**
 * `body` itself, refused (400) when nested past MAX_JSON_DEPTH: checked before anything walks it
 * (codecs, prompt sizing and converters recurse).
 */
export function boundedDepth(body: JsonObject): JsonObject {
  const tooDeep = findTooDeep(body);
  if (tooDeep === undefined) return body;
  const field = tooDeep.length > 120 ? `${tooDeep.slice(0, 120)}...` : tooDeep;
  throw invalidRequest(`${field}: nested more than ${MAX_JSON_DEPTH} levels deep`, field);
}
