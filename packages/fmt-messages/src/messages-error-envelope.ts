import { zObject, zStrictObject } from "@interlingua/core-types";
import { defaultMessageFor, GatewayError } from "@interlingua/errors";
import { bodyJson, isErrorStatus } from "@interlingua/errors/internal";
import * as z from "zod/mini";
import {
  gatewayStatusForMessagesErrorType,
  messagesErrorTypeFor,
  messagesErrorTypeSchema,
} from "./messages-error-type.js";
import { appendRequestId, splitRequestId } from "./request-id-suffix.js";

/**
 * The variant docs/api-reference.md shows for the messages endpoint, which is Anthropic's own error body, so
 * Anthropic SDKs raise their typed errors. `request_id` is Anthropic's field for the same id the
 * message ends with; it is present only when an id is given.
 */
export const anthropicErrorBodySchema = zStrictObject({
  type: z.literal("error"),
  error: zStrictObject({
    type: messagesErrorTypeSchema,
    message: z.string(),
    /** Anthropic's machine code of the error, which its SDK acts on (`thread_not_found`). */
    details: z.exactOptional(zObject({ error_code: z.string() })),
  }),
  request_id: z.exactOptional(z.string()),
});
export type AnthropicErrorBody = z.infer<typeof anthropicErrorBodySchema>;

/** The messages endpoint's pass-through service error: `code` may be empty, `type` is fixed. */
export const serviceErrorBodySchema = zStrictObject({
  error: zStrictObject({
    code: z.string(),
    message: z.string(),
    param: z.string(),
    type: z.literal("service_error"),
  }),
});
export type ServiceErrorBody = z.infer<typeof serviceErrorBodySchema>;

/**
 * The messages endpoint's error body, either variant: what the gateway answers. Named apart from
 * `messagesErrorBodySchema`, the wire's in-stream error event that the decoder reads.
 */
export const messagesErrorEnvelopeSchema = z.union([
  anthropicErrorBodySchema,
  serviceErrorBodySchema,
]);
export type MessagesErrorEnvelope = z.infer<typeof messagesErrorEnvelopeSchema>;

export type MessagesErrorVariant = "anthropic" | "service";
export interface MessagesErrorOptions {
  /** Appended to the message as ` (request id: <id>)`. */
  requestId?: string;
  /** Default `anthropic`. */
  variant?: MessagesErrorVariant;
}

/**
 * The `error_code`s of Anthropic's `error.details` that the gateway itself answers with: such an
 * error takes Anthropic's body, whose SDK acts on the code (a machine code of the gateway's own,
 * as in `model_not_found`, takes the service body).
 */
const ANTHROPIC_ERROR_CODES: ReadonlySet<string> = new Set(["thread_not_found"]);

export const isAnthropicErrorCode = (code: string | undefined): boolean =>
  code !== undefined && ANTHROPIC_ERROR_CODES.has(code);

const renderAnthropicVariant = (error: GatewayError, requestId?: string): AnthropicErrorBody => ({
  type: "error",
  error: {
    type: messagesErrorTypeFor(error.status),
    message: appendRequestId(error.message, requestId),
    ...(isAnthropicErrorCode(error.code) ? { details: { error_code: error.code as string } } : {}),
  },
  ...(requestId === undefined ? {} : { request_id: requestId }),
});

const renderServiceVariant = (error: GatewayError, requestId?: string): ServiceErrorBody => ({
  error: {
    code: error.code ?? "",
    message: appendRequestId(error.message, requestId),
    param: error.param ?? "",
    type: "service_error",
  },
});

export function renderMessagesError(
  error: GatewayError,
  options?: MessagesErrorOptions & { variant?: "anthropic" },
): AnthropicErrorBody;
export function renderMessagesError(
  error: GatewayError,
  options: MessagesErrorOptions & { variant: "service" },
): ServiceErrorBody;
export function renderMessagesError(
  error: GatewayError,
  options?: MessagesErrorOptions,
): MessagesErrorEnvelope;
export function renderMessagesError(
  error: GatewayError,
  options: MessagesErrorOptions = {},
): MessagesErrorEnvelope {
  return options.variant === "service"
    ? renderServiceVariant(error, options.requestId)
    : renderAnthropicVariant(error, options.requestId);
}

const optionalString = z.catch(z.optional(z.string()), undefined);
const lenientMessagesBodySchema = zObject({
  error: zObject({
    type: optionalString,
    message: optionalString,
    code: optionalString,
    param: optionalString,
  }),
});

/**
 * Reads either variant back. The HTTP status wins; without one (an `error` event inside a 200
 * stream) the Anthropic type names the status, and api_error reads as 500, so a 502 comes back
 * as 500: the same Anthropic type, the same class.
 */
export const parseMessagesError = (status: number, body: unknown): GatewayError => {
  const parsed = lenientMessagesBodySchema.safeParse(bodyJson(body));
  const error = parsed.success ? parsed.data.error : undefined;
  const resolved = isErrorStatus(status)
    ? status
    : (gatewayStatusForMessagesErrorType(error?.type) ?? 500);
  return new GatewayError({
    status: resolved,
    message:
      error?.message === undefined
        ? defaultMessageFor(resolved)
        : splitRequestId(error.message).message,
    ...(error?.code ? { code: error.code } : {}),
    ...(error?.param ? { param: error.param } : {}),
  });
};
