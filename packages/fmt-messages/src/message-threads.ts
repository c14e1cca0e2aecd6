import type { Request } from "@interlingua/core-types";
import { GatewayError } from "@interlingua/errors";
import { messagesExtras } from "./messages-extras.js";

/**
 * Anthropic's message threads (beta `message-threads-2026-08-12`, which the Anthropic SDK's tool
 * runner uses by default): `thread: {type: "create"}` asks the server to hold the conversation
 * under the reply's id, and `{type: "continue", previous_message_id}` then sends only the new
 * turn. Only an Anthropic upstream holds threads. Toward another protocol `create` is dropped
 * (warned: the request carries the whole conversation), and `continue` is answered as Anthropic
 * answers a thread it does not hold, `thread_not_found` (404): on it the SDK replays the whole
 * conversation under a new thread. Sent on, the new turn alone would reach a model that never
 * saw the conversation.
 */
export const THREAD_NOT_FOUND = "thread_not_found";

/** The error a `thread: {type: "continue"}` request gets where no thread is held, if it is one. */
export function threadNotHeld(request: Request): GatewayError | undefined {
  const thread = messagesExtras(request.extras)?.["thread"] as { type?: unknown } | undefined;
  if (thread?.type !== "continue") return undefined;
  return new GatewayError({
    status: 404,
    type: "not_found_error",
    code: THREAD_NOT_FOUND,
    param: "thread.previous_message_id",
    message:
      'thread: this model\'s upstream holds no message threads; send the whole conversation with thread: {type: "create"} (the Anthropic SDK does so on this error)',
  });
}
