import { type GatewayError, invalidRequest, toGatewayError } from "@interlingua/errors";

/**
 * Whatever a render threw, as a refusal the client can be answered with (issue 15, item 1): a
 * foreign error never passes for a GatewayError (it had no status, so the client got a 200 and
 * the usage row none). Running out of stack on a deeply nested body is the request's fault (400);
 * anything else is the gateway's (500, the message kept for the log only).
 */
export function thrownRefusal(thrown: unknown): GatewayError {
  if (thrown instanceof RangeError && /call stack/i.test(thrown.message)) {
    return invalidRequest("request is nested too deeply to be translated");
  }
  return toGatewayError(thrown);
}
