import { zObject } from "@interlingua/core-types";
import type { GatewayError, UpstreamErrorOptions } from "@interlingua/errors";
import {
  buildUpstreamError,
  looseErrorMessage,
  readBody,
  tableLookup,
  type UpstreamErrorReading,
} from "@interlingua/errors/internal";
import * as z from "zod/mini";
import {
  googleErrorOf,
  type LenientGoogleError,
  retryAfterFromDetails,
  statusOfGoogleError,
} from "./native-error-envelope.js";

/**
 * google.rpc.ErrorInfo reasons that beat the HTTP status. Google answers a bad key with 400
 * INVALID_ARGUMENT; it is the gateway's key, so it is read as the 401 it means.
 */
export const googleStatusOfReason: Readonly<Record<string, number>> = {
  API_KEY_INVALID: 401,
  API_KEY_EXPIRED: 401,
  API_KEY_SERVICE_BLOCKED: 403,
};

const errorInfoSchema = zObject({
  "@type": z.literal("type.googleapis.com/google.rpc.ErrorInfo"),
  reason: z.string(),
});

const reasonStatus = (details: readonly unknown[]) => {
  for (const detail of details) {
    const info = errorInfoSchema.safeParse(detail);
    const status = info.success ? tableLookup(googleStatusOfReason, info.data.reason) : undefined;
    if (status !== undefined) return status;
  }
  return undefined;
};

const readingOf = (error: LenientGoogleError): UpstreamErrorReading => {
  const fromReason = reasonStatus(error.details);
  return {
    status: fromReason ?? statusOfGoogleError(error),
    overrides: fromReason !== undefined,
    message: error.message,
    retryAfterSeconds: retryAfterFromDetails(error.details),
  };
};

/** A Gemini error body (object, or the one-element array of a non-SSE stream), as the client's error. */
export const parseGeminiError = (
  status: number,
  body: unknown,
  options?: UpstreamErrorOptions,
): GatewayError => {
  const read = readBody(body);
  const error = read.kind === "json" ? googleErrorOf(read.json) : undefined;
  const reading = error ? readingOf(error) : { message: looseErrorMessage(read) };
  return buildUpstreamError("gemini", status, body, reading, options);
};
