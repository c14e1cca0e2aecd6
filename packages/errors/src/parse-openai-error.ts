import { zObject } from "@interlingua/core-types";
import * as z from "zod/mini";
import type { GatewayError } from "./gateway-error.js";
import { isErrorStatus } from "./gateway-status.js";
import { looseErrorMessage } from "./loose-error-message.js";
import { readBody } from "./read-body.js";
import { tableLookup } from "./table-lookup.js";
import {
  buildUpstreamError,
  type UpstreamErrorOptions,
  type UpstreamErrorReading,
} from "./upstream-error.js";

/**
 * The HTTP status OpenAI sends with each error `code` or `type`, for errors that arrive inside a
 * 200 stream. From OpenAI's error-code guide and the bodies it really sends.
 */
export const openAIStatusOfKind: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  context_length_exceeded: 400,
  invalid_api_key: 401,
  authentication_error: 401,
  insufficient_quota: 402,
  permission_error: 403,
  unsupported_country_region_territory: 403,
  not_found_error: 404,
  model_not_found: 404,
  rate_limit_exceeded: 429,
  rate_limit_error: 429,
  requests: 429,
  tokens: 429,
  server_error: 500,
  service_unavailable_error: 503,
  server_is_overloaded: 503,
  slow_down: 503,
};

/** Kinds that beat the HTTP status: insufficient_quota comes as 429 but no retry will help. */
const overridingKinds: ReadonlySet<string> = new Set(["insufficient_quota"]);

const nullableString = z.catch(z.nullish(z.string()), undefined);
const openAIErrorObjectSchema = zObject({
  message: nullableString,
  type: nullableString,
  code: z.catch(z.nullish(z.union([z.string(), z.number()])), undefined),
  param: nullableString,
});
type OpenAIErrorObject = z.infer<typeof openAIErrorObjectSchema>;

/**
 * Where OpenAI puts the error: `{error}` in a response body and in a chat stream chunk, the
 * Responses `error` event (fields nested, as recorded, or top level, as documented), and
 * `response.failed` (`response.error`).
 */
const openAIErrorLocations = z.union([
  z.pipe(
    zObject({ error: openAIErrorObjectSchema }),
    z.transform((body) => body.error),
  ),
  z.pipe(
    zObject({
      type: z.literal("response.failed"),
      response: zObject({ error: openAIErrorObjectSchema }),
    }),
    z.transform((body) => body.response.error),
  ),
  z.pipe(
    z.extend(openAIErrorObjectSchema, { type: z.literal("error"), message: z.string() }),
    z.transform((event) => ({ ...event, type: undefined })),
  ),
]);

const readingOf = (error: OpenAIErrorObject): UpstreamErrorReading => {
  const code = typeof error.code === "string" ? error.code : undefined;
  const kind = [code, error.type].find(
    (candidate): candidate is string =>
      typeof candidate === "string" && tableLookup(openAIStatusOfKind, candidate) !== undefined,
  );
  const numericCode = isErrorStatus(error.code) ? error.code : undefined;
  return {
    status: kind === undefined ? numericCode : tableLookup(openAIStatusOfKind, kind),
    overrides: kind !== undefined && overridingKinds.has(kind),
    message: error.message ?? undefined,
    code,
    param: error.param ?? undefined,
  };
};

/**
 * An OpenAI (or OpenAI-compatible) error body or stream error event, as the client's error.
 * `protocol` names the API that answered (chat completions or the Responses API) in diagnostics.
 */
export const parseOpenAIError = (
  status: number,
  body: unknown,
  options?: UpstreamErrorOptions,
  protocol: "openai" | "openai-responses" = "openai",
): GatewayError => {
  const read = readBody(body);
  const located = read.kind === "json" ? openAIErrorLocations.safeParse(read.json) : undefined;
  const reading = located?.success ? readingOf(located.data) : { message: looseErrorMessage(read) };
  return buildUpstreamError(protocol, status, body, reading, options);
};
