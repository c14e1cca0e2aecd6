import { zObject } from "@interlingua/core-types";
import type { GatewayError, UpstreamErrorOptions } from "@interlingua/errors";
import {
  buildUpstreamError,
  looseErrorMessage,
  readBody,
  type UpstreamErrorReading,
} from "@interlingua/errors/internal";
import * as z from "zod/mini";
import { httpStatusOfMessagesErrorType, messagesErrorTypeSchema } from "./messages-error-type.js";

/** Types that beat the HTTP status: a billing failure is the gateway's account, whatever the code. */
const overridingTypes: ReadonlySet<string> = new Set(["billing_error"]);

/** Anthropic's error body; the stream `error` event has the same shape. */
const anthropicErrorSchema = zObject({
  error: zObject({
    type: z.catch(z.optional(z.string()), undefined),
    message: z.catch(z.optional(z.string()), undefined),
  }),
});

const readingOf = (error: { type?: string | undefined; message?: string | undefined }) => {
  const type = messagesErrorTypeSchema.safeParse(error.type);
  return {
    status: type.success ? httpStatusOfMessagesErrorType[type.data] : undefined,
    overrides: type.success && overridingTypes.has(type.data),
    message: error.message,
  } satisfies UpstreamErrorReading;
};

/** An Anthropic error body or stream `error` event, as the client's error. */
export const parseAnthropicError = (
  status: number,
  body: unknown,
  options?: UpstreamErrorOptions,
): GatewayError => {
  const read = readBody(body);
  const parsed = read.kind === "json" ? anthropicErrorSchema.safeParse(read.json) : undefined;
  const reading = parsed?.success
    ? readingOf(parsed.data.error)
    : { message: looseErrorMessage(read) };
  return buildUpstreamError("anthropic", status, body, reading, options);
};
