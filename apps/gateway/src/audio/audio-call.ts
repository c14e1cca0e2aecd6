import type { GatewayError } from "@interlingua/errors";
import type { Context } from "hono";
import type { AuthenticatedToken } from "../auth/token-store.ts";
import type { KeyedEnv } from "../contract/app-env.ts";
import { errorResponse } from "../contract/error-response.ts";
import { type RequestLog, requestLog } from "../log/request-log.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import type { AudioEndpoint } from "./audio-route.ts";
import type { MediaCall } from "./media-account.ts";

/**
 * One audio request's context: its id, log and clock, and its upstream failures in the standard
 * envelope (refusals before the upstream are thrown, answered by the app's error handler).
 */
export interface AudioCall {
  readonly requestId: string;
  readonly url: URL;
  readonly log: RequestLog;
  elapsed(): number;
  /** Failed at or after the upstream: logged with the attempts, answered in the standard body. */
  fail(error: GatewayError, fields: Record<string, unknown>): Response;
  /** The billing side of this call. */
  billing(token: AuthenticatedToken, model: string, gatewayModel: string): MediaCall;
}

export function audioCall(
  services: GatewayServices,
  c: Context<KeyedEnv>,
  endpoint: AudioEndpoint,
): AudioCall {
  const requestId = c.get("requestId");
  const url = new URL(c.req.url);
  const started = performance.now();
  const log = requestLog(services.log, { requestId, endpoint });
  const elapsed = () => Math.round(performance.now() - started);
  return {
    requestId,
    url,
    log,
    elapsed,
    fail(error, fields) {
      log.info(
        {
          ...fields,
          status: error.status,
          error: error.message,
          // The upstream's body stays out of the log: it may quote the channel's key.
          ...(error.upstream === undefined ? {} : { upstreamStatus: error.upstream.status }),
          ms: elapsed(),
        },
        "request failed",
      );
      return errorResponse("standard", error, requestId);
    },
    billing: (token, model, gatewayModel) => ({
      requestId,
      token,
      model,
      gatewayModel,
      endpoint,
      started,
    }),
  };
}
