import { randomBytes } from "node:crypto";
import { findTooDeep, MAX_JSON_DEPTH, parseWireJson, type Warning } from "@interlingua/core-types";
import { type GatewayError, invalidRequest, payloadTooLarge } from "@interlingua/errors";
import { type BodyReadFailure, type BodyReadResult, readBodyCapped } from "./read-body.ts";

// What the API reference promises a client besides its format: the request id, the envelope,
// the warnings and strict headers, and what a JSON request body must be.

// The request id every reply carries.

export const REQUEST_ID_HEADER = "x-request-id";

const ID_BYTES = 12;
/** Ids drawn per trip to the CSPRNG: one `randomBytes` call per request was a hot spot. */
const IDS_PER_REFILL = 256;
let pool = Buffer.alloc(0);
let offset = 0;

/** A short, URL-safe, unguessable id; callers' own ids are not trusted into our logs. */
export function newRequestId(): string {
  if (offset === pool.length) {
    pool = randomBytes(ID_BYTES * IDS_PER_REFILL);
    offset = 0;
  }
  const id = pool.toString("base64url", offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return `req_${id}`;
}

// The `{code: 200, data}` envelope of a successful non-stream body.

export const ENVELOPE_HEADER = "x-interlingua-envelope";

export type EnvelopeSetting = "spec" | "bare";

/**
 * Whether a successful non-stream body is wrapped. The request header overrides the server
 * setting in either direction; endpoints that are bare by the API reference (messages) are never wrapped.
 */
export function shouldWrap(
  endpointWrapped: boolean,
  setting: EnvelopeSetting,
  header: string | null,
): boolean {
  if (!endpointWrapped) return false;
  const chosen = header?.trim().toLowerCase();
  const effective = chosen === "bare" || chosen === "spec" ? chosen : setting;
  return effective === "spec";
}

/** Wraps an already-serialised JSON body without re-parsing it (the fast path keeps bytes as sent). */
export function wrapJsonText(json: string): string {
  return `{"code":200,"data":${json}}`;
}

// The warnings header, strict mode and the upstream model header.

/** Lists what a translation dropped or approximated: `path=action`, comma-separated. */
export const WARNINGS_HEADER = "x-interlingua-warnings";
/** `true` turns every would-be drop into a 400 naming the field. */
export const STRICT_HEADER = "x-interlingua-strict";

/**
 * One entry of the header: a codec's `Warning` (`dropped`, `mapped`), or the gateway's own word
 * on its reply (`input_tokens=estimated`: a count the gateway made, not the provider).
 */
export interface HeaderWarning {
  readonly feature: string;
  readonly type: string;
}

/** Header values stay well under common proxy limits (8 KiB per header line). */
const MAX_HEADER_CHARS = 4000;

// A path is written as-is where it can be; a character a header value cannot hold, or that
// would split the list (`,` `=`), is percent-encoded.
const encodePath = (path: string) => path.replace(/[^\x21-\x7e]|[,=%]/gu, percentEncoded);

/**
 * One character percent-encoded. A client's field name may hold a lone surrogate
 * (`{"\ud800": 1}` is valid JSON), which `encodeURIComponent` throws on: it is written as
 * U+FFFD's encoding.
 */
const percentEncoded = (c: string): string =>
  /^[\ud800-\udfff]$/.test(c) ? "%EF%BF%BD" : encodeURIComponent(c);

/**
 * The header value for a list of warnings, each distinct `path=action` once, in order; undefined
 * when there is nothing to say. A list too long for one header ends in `...=truncated`.
 */
export function formatWarningsHeader(warnings: readonly HeaderWarning[]): string | undefined {
  const seen = new Set<string>();
  let out = "";
  for (const warning of warnings) {
    const entry = `${encodePath(warning.feature)}=${warning.type}`;
    if (seen.has(entry)) continue;
    seen.add(entry);
    const next = out === "" ? entry : `${out},${entry}`;
    if (next.length > MAX_HEADER_CHARS) return `${out},...=truncated`;
    out = next;
  }
  return out === "" ? undefined : out;
}

/**
 * A stream's own warnings (what its encoding dropped after the headers went) as the SSE comment
 * that ends it, `: x-interlingua-warnings: path=action,...`; empty when there are none.
 */
export function warningsComment(warnings: readonly Warning[] | undefined): string {
  const value = warnings === undefined ? undefined : formatWarningsHeader(warnings);
  return value === undefined ? "" : `: ${WARNINGS_HEADER}: ${value}\n\n`;
}

/** The response headers carrying `warnings` (none when there are none). */
export function warningsHeaders(warnings: readonly HeaderWarning[]): Record<string, string> {
  const value = formatWarningsHeader(warnings);
  return value === undefined ? {} : { [WARNINGS_HEADER]: value };
}

export const isStrict = (headers: Pick<Headers, "get">): boolean =>
  headers.get(STRICT_HEADER)?.trim().toLowerCase() === "true";

/**
 * In strict mode, the first would-be drop as the 400 the client gets instead, naming the field
 * (a canonical path such as `sampling.topK`, or the client's own field name).
 */
export function strictRefusal(warnings: readonly Warning[]): GatewayError | undefined {
  const dropped = warnings.find((w) => w.type === "dropped");
  if (dropped === undefined) return undefined;
  return invalidRequest(
    `${dropped.feature}: would be dropped (${dropped.message}); refused because ${STRICT_HEADER} is true`,
    dropped.feature,
  );
}

/** The model id the upstream was called with; the reply itself names the client's model. */
export const UPSTREAM_MODEL_HEADER = "x-interlingua-upstream-model";

/** Header values take visible ASCII; any other character is percent-encoded (a lone surrogate as U+FFFD). */
export const upstreamModelHeader = (model: string): Record<string, string> => ({
  [UPSTREAM_MODEL_HEADER]: model.replace(/[^\x20-\x7e]/gu, percentEncoded),
});

// A request body that must be a JSON object.

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
