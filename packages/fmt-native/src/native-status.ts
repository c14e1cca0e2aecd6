import type { GatewayStatus } from "@interlingua/errors";
import { isClientErrorStatus, lookupStatus } from "@interlingua/errors/internal";
import * as z from "zod/mini";

/**
 * Every `status` string a native (generate-content) error body may carry: Google's canonical
 * codes, plus the two docs/api-reference.md adds for statuses Google has no code for.
 */
export const nativeStatusSchema = z.enum([
  "CANCELLED",
  "UNKNOWN",
  "INVALID_ARGUMENT",
  "DEADLINE_EXCEEDED",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "PERMISSION_DENIED",
  "UNAUTHENTICATED",
  "RESOURCE_EXHAUSTED",
  "FAILED_PRECONDITION",
  "ABORTED",
  "OUT_OF_RANGE",
  "UNIMPLEMENTED",
  "INTERNAL",
  "UNAVAILABLE",
  "DATA_LOSS",
  "PAYMENT_REQUIRED",
  "BAD_GATEWAY",
]);
export type NativeStatus = z.infer<typeof nativeStatusSchema>;

/**
 * Native `status` per HTTP status, as docs/api-reference.md's table gives it. 413 is blank in the spec:
 * INVALID_ARGUMENT is what Google itself answers for an oversized payload, and it keeps Google
 * clients from retrying, which RESOURCE_EXHAUSTED would invite.
 */
export const nativeStatuses = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  402: "PAYMENT_REQUIRED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  413: "INVALID_ARGUMENT",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  502: "BAD_GATEWAY",
  503: "UNAVAILABLE",
} as const satisfies Record<GatewayStatus, NativeStatus>;

/** Google's documented HTTP mapping of each canonical code (google.rpc.Code), plus the spec's two. */
export const httpStatusOfNativeStatus = {
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  OUT_OF_RANGE: 400,
  UNAUTHENTICATED: 401,
  PAYMENT_REQUIRED: 402,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ABORTED: 409,
  ALREADY_EXISTS: 409,
  RESOURCE_EXHAUSTED: 429,
  CANCELLED: 499,
  INTERNAL: 500,
  UNKNOWN: 500,
  DATA_LOSS: 500,
  UNIMPLEMENTED: 501,
  BAD_GATEWAY: 502,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
} as const satisfies Record<NativeStatus, number>;

const nativeStatusByGoogleHttp = new Map<number, NativeStatus>();
for (const [code, http] of Object.entries(httpStatusOfNativeStatus)) {
  // First listed wins, so each HTTP status gets Google's primary code for it.
  if (!nativeStatusByGoogleHttp.has(http)) nativeStatusByGoogleHttp.set(http, code as NativeStatus);
}

export const nativeStatusFor = (status: number): NativeStatus =>
  lookupStatus(nativeStatuses, status) ??
  nativeStatusByGoogleHttp.get(status) ??
  (isClientErrorStatus(status) ? "INVALID_ARGUMENT" : "INTERNAL");

export const httpStatusForNativeStatus = (status: unknown): number | undefined => {
  const parsed = nativeStatusSchema.safeParse(status);
  return parsed.success ? httpStatusOfNativeStatus[parsed.data] : undefined;
};
