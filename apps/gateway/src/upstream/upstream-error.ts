import type { UpstreamProtocol } from "@interlingua/core-types";
import { badGateway, type GatewayError } from "@interlingua/errors";
import { PROTOCOLS } from "./protocols.ts";
import type { UpstreamFailure } from "./upstream-failure.ts";

/** Failures without an upstream body; docs/api-reference.md lists 502 for gateway errors, timeouts included. */
const NETWORK_FAILURES: Record<Exclude<UpstreamFailure["kind"], "status">, string> = {
  timeout: "upstream timed out",
  connection: "could not reach the upstream",
  malformed: "upstream sent a malformed reply",
};

/**
 * The error the client sees for a failed upstream attempt. A status body goes through its
 * protocol's reader (`Protocol.parseError`, its format package's), which maps the status (429 stays, upstream faults become 502/503), keeps the
 * client's own mistakes in the upstream's words, and strips anything that looks like a key.
 */
export function upstreamFailureToError(
  protocol: UpstreamProtocol,
  failure: UpstreamFailure,
): GatewayError {
  if (failure.kind !== "status")
    return badGateway(NETWORK_FAILURES[failure.kind], { cause: failure.message });
  return PROTOCOLS[protocol].parseError(failure.status, failure.body, {
    retryAfter: failure.retryAfter ?? null,
  });
}

/** Every channel for the model is cooling down after repeated failures. */
export const noChannelAvailable = (): GatewayError =>
  badGateway("no upstream channel is available for this model right now; retry later");
