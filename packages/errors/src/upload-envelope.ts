import { zObject, zStrictObject } from "@interlingua/core-types";
import * as z from "zod/mini";
import { defaultMessageFor } from "./default-message.js";
import { GatewayError } from "./gateway-error.js";
import { isErrorStatus } from "./gateway-status.js";
import { bodyJson } from "./read-body.js";

/**
 * docs/api-reference.md's upload body: `{error: {message, type}}`, and "429 adds `code`". The spec does not
 * show the code's value; it is the integer 429, the standard body's code, since the 429 comes
 * from the same rate limiter that guards every other endpoint.
 */
export const uploadErrorBodySchema = zStrictObject({
  error: zStrictObject({
    message: z.string(),
    type: z.string().check(z.minLength(1)),
    code: z.exactOptional(z.literal(429)),
  }),
});
export type UploadErrorBody = z.infer<typeof uploadErrorBodySchema>;

export const renderUploadError = (error: GatewayError): UploadErrorBody => ({
  error: {
    message: error.message,
    type: error.type,
    ...(error.status === 429 ? { code: 429 as const } : {}),
  },
});

const lenientUploadBodySchema = zObject({
  error: zObject({
    message: z.catch(z.optional(z.string()), undefined),
    type: z.catch(z.optional(z.string()), undefined),
  }),
});

/** The upload body carries no status (except 429's code), so the HTTP status is the status. */
export const parseUploadError = (status: number, body: unknown): GatewayError => {
  const parsed = lenientUploadBodySchema.safeParse(bodyJson(body));
  const error = parsed.success ? parsed.data.error : undefined;
  const resolved = isErrorStatus(status) ? status : 500;
  return new GatewayError({
    status: resolved,
    ...(error?.type ? { type: error.type } : {}),
    message: error?.message ?? defaultMessageFor(resolved),
  });
};
