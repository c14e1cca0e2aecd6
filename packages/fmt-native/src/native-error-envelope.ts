import { zObject, zStrictObject } from "@interlingua/core-types";
import { defaultMessageFor, GatewayError, parseDurationSeconds } from "@interlingua/errors";
import { bodyJson, errorStatusSchema, isErrorStatus } from "@interlingua/errors/internal";
import * as z from "zod/mini";
import { httpStatusForNativeStatus, nativeStatusFor, nativeStatusSchema } from "./native-status.js";

const retryInfoType = "type.googleapis.com/google.rpc.RetryInfo";

/**
 * docs/api-reference.md's native body: `{error: {code, message, status}}`, what the gateway
 * answers (`nativeErrorBodySchema` is the wire's error, read from the upstream). When the error says when to retry,
 * Google's own `details: [RetryInfo]` is added, which Google clients already read.
 */
export const nativeErrorEnvelopeSchema = zStrictObject({
  error: zStrictObject({
    code: errorStatusSchema,
    message: z.string(),
    status: nativeStatusSchema,
    details: z.exactOptional(
      z.array(
        zStrictObject({
          "@type": z.literal(retryInfoType),
          retryDelay: z.string().check(z.regex(/^\d+s$/)),
        }),
      ),
    ),
  }),
});
export type NativeErrorEnvelope = z.infer<typeof nativeErrorEnvelopeSchema>;

export const renderNativeError = (error: GatewayError): NativeErrorEnvelope => ({
  error: {
    code: error.status,
    message: error.message,
    status: nativeStatusFor(error.status),
    ...(error.retryAfterSeconds === undefined
      ? {}
      : {
          details: [
            { "@type": retryInfoType, retryDelay: `${Math.ceil(error.retryAfterSeconds)}s` },
          ],
        }),
  },
});

/** Google's error body, read leniently: shared with the Gemini upstream parser. */
export const lenientGoogleErrorSchema = zObject({
  code: z.optional(z.unknown()),
  message: z.catch(z.optional(z.string()), undefined),
  status: z.catch(z.optional(z.string()), undefined),
  details: z.catch(z.array(z.unknown()), []),
});
export type LenientGoogleError = z.infer<typeof lenientGoogleErrorSchema>;

const retryInfoSchema = zObject({ "@type": z.literal(retryInfoType), retryDelay: z.string() });

export const retryAfterFromDetails = (details: readonly unknown[]): number | undefined => {
  for (const detail of details) {
    const retryInfo = retryInfoSchema.safeParse(detail);
    if (retryInfo.success) return parseDurationSeconds(retryInfo.data.retryDelay);
  }
  return undefined;
};

/**
 * The Google error object of a body. streamGenerateContent without `alt=sse` answers a JSON
 * array, and its errors arrive as the array's one element.
 */
export const googleErrorOf = (json: unknown): LenientGoogleError | undefined => {
  const candidate = Array.isArray(json) ? json[0] : json;
  const parsed = zObject({ error: lenientGoogleErrorSchema }).safeParse(candidate);
  return parsed.success ? parsed.data.error : undefined;
};

/** The HTTP status a Google error object stands for: its integer code, else its status string. */
export const statusOfGoogleError = (error: LenientGoogleError | undefined) =>
  isErrorStatus(error?.code) ? error.code : httpStatusForNativeStatus(error?.status);

/** Reads a native body back; the body's code wins, then its status string, then the HTTP status. */
export const parseNativeError = (status: number, body: unknown): GatewayError => {
  const error = googleErrorOf(bodyJson(body));
  const fromBody = statusOfGoogleError(error);
  const resolved =
    fromBody !== undefined && isErrorStatus(fromBody)
      ? fromBody
      : isErrorStatus(status)
        ? status
        : 500;
  const retryAfterSeconds = retryAfterFromDetails(error?.details ?? []);
  return new GatewayError({
    status: resolved,
    message: error?.message ?? defaultMessageFor(resolved),
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  });
};
