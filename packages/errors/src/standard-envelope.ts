import { zObject, zStrictObject } from "@interlingua/core-types";
import * as z from "zod/mini";
import { defaultMessageFor } from "./default-message.js";
import { GatewayError } from "./gateway-error.js";
import { errorStatusSchema, isErrorStatus } from "./gateway-status.js";
import { bodyJson } from "./read-body.js";

/**
 * docs/api-reference.md's usual error body: `{error: {code, message, type}}`, `code` the HTTP status as an
 * integer. `param` is added only when the error names a field: OpenAI SDKs read it, and a reader
 * of the spec's three keys is not disturbed by a fourth.
 */
export const standardErrorBodySchema = zStrictObject({
  error: zStrictObject({
    code: errorStatusSchema,
    message: z.string(),
    type: z.string().check(z.minLength(1)),
    param: z.exactOptional(z.string()),
  }),
});
export type StandardErrorBody = z.infer<typeof standardErrorBodySchema>;

export const renderStandardError = (error: GatewayError): StandardErrorBody => ({
  error: {
    code: error.status,
    message: error.message,
    type: error.type,
    ...(error.param === undefined ? {} : { param: error.param }),
  },
});

const lenientStandardBodySchema = zObject({
  error: zObject({
    code: z.optional(z.unknown()),
    message: z.catch(z.optional(z.string()), undefined),
    type: z.catch(z.optional(z.string()), undefined),
    param: z.catch(z.optional(z.string()), undefined),
  }),
});

/**
 * Reads a standard body back. The body's integer code wins over the HTTP status, since the spec
 * makes them equal and the body survives being stored or forwarded without its status line.
 */
export const parseStandardError = (status: number, body: unknown): GatewayError => {
  const parsed = lenientStandardBodySchema.safeParse(bodyJson(body));
  const error = parsed.success ? parsed.data.error : undefined;
  const resolved = isErrorStatus(error?.code) ? error.code : isErrorStatus(status) ? status : 500;
  return new GatewayError({
    status: resolved,
    ...(error?.type ? { type: error.type } : {}),
    message: error?.message ?? defaultMessageFor(resolved),
    ...(error?.param === undefined ? {} : { param: error.param }),
  });
};
