import { type GatewayStatus, isClientErrorStatus, isErrorStatus } from "./gateway-status.js";
import { tableLookup } from "./table-lookup.js";

/**
 * The status a client sees for each status an upstream answered. The rule: an error the client's
 * own request caused keeps its class (400, 404, 413, 429); an error of the gateway's own upstream
 * account becomes 502, because a client told 401/402/403 would blame its own key or balance for
 * the gateway's; upstream failures become 502, and upstream overload (503, Anthropic's 529)
 * becomes 503 so clients back off and retry.
 */
export const gatewayStatusForUpstreamStatus = {
  400: 400,
  401: 502,
  402: 502,
  403: 502,
  404: 404,
  408: 502,
  409: 400,
  413: 413,
  422: 400,
  429: 429,
  500: 502,
  501: 502,
  502: 502,
  503: 503,
  504: 502,
  529: 503,
} as const satisfies Record<number, GatewayStatus>;

export const gatewayStatusForUpstream = (upstreamStatus: number): GatewayStatus =>
  tableLookup<GatewayStatus>(gatewayStatusForUpstreamStatus, upstreamStatus) ??
  (isClientErrorStatus(upstreamStatus) ? 400 : 502);

/**
 * The status an upstream error stands for. The HTTP status usually says it; errors inside a 200
 * stream only say it in the body; and a few body kinds are more precise than the HTTP status
 * (OpenAI's insufficient_quota arrives as 429 but is a billing failure, not a rate limit).
 */
export const effectiveUpstreamStatus = (
  httpStatus: number,
  fromBody: { status?: number | undefined; overrides?: boolean },
): number =>
  fromBody.overrides && fromBody.status !== undefined
    ? fromBody.status
    : isErrorStatus(httpStatus)
      ? httpStatus
      : (fromBody.status ?? 500);
