import {
  gatewayStatusForMessagesErrorType,
  type MessagesErrorType,
  messagesErrorTypeFor,
  messagesErrorTypeSchema,
} from "./messages-error-type.js";

/*
 * The type <-> status tables are the error envelope's (messages-error-type.ts), so an in-stream
 * error and an HTTP error of the same kind get the same status and type.
 */

/** An in-stream error's Anthropic type -> the gateway status (overloaded_error is 503). */
export function messagesErrorStatus(type: string): number {
  return gatewayStatusForMessagesErrorType(type) ?? 500;
}

/** A canonical error -> its Anthropic type: its own when it already is one, else by status. */
export function messagesErrorType(error: { status: number; type: string }): MessagesErrorType {
  const own = messagesErrorTypeSchema.safeParse(error.type);
  return own.success ? own.data : messagesErrorTypeFor(error.status);
}
