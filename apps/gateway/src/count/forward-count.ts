import {
  parseWireJson,
  type Request,
  stringifyJsonKeepingNumbers,
  type Warning,
  type WireFormat,
} from "@interlingua/core-types";
import type { GatewayError } from "@interlingua/errors";
import { strictRefusal } from "../contract/client-contract.ts";
import { thrownRefusal } from "../pipeline/thrown-refusal.ts";
import type { RouteCandidate } from "../routing/model-router.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import {
  type AttemptRecord,
  type ChannelTry,
  callChannel,
  sendUpstreamText,
} from "../upstream/call-channel.ts";
import { prepareUpstreamRequest } from "../upstream/prepare-upstream-request.ts";
import { PROTOCOLS, type UpstreamCallOptions } from "../upstream/protocols.ts";

/** A count request as the client sent it and as its codec read it. */
export interface CountInput {
  readonly endpoint: { readonly format: WireFormat };
  /** The generation body the client's count body stands for (`ProtocolTokenCount.generation`). */
  readonly wire: Record<string, unknown>;
  readonly canonical: Request;
  readonly upstream: UpstreamCallOptions;
  readonly strict: boolean;
  readonly signal: AbortSignal;
  /** Who asks (the token id): one caller alone cannot open a channel's circuit. */
  readonly source: string;
  /** What the gateway's reading of the request already left out. */
  readonly notes: readonly Warning[];
}

/** A provider's count. */
export interface Counted {
  readonly candidate: RouteCandidate;
  readonly tokens: number;
  /** The provider's reply as it came, for a client of its own format. */
  readonly text: string;
  readonly warnings: readonly Warning[];
}

export type CountResult =
  | { readonly ok: true; readonly counted: Counted; readonly attempts: AttemptRecord[] }
  | { readonly ok: false; readonly error: GatewayError; readonly attempts: AttemptRecord[] };

/** Whether a channel's provider counts tokens itself (it has a counting endpoint). */
export const counts = (candidate: RouteCandidate): boolean =>
  PROTOCOLS[candidate.channel.protocol].tokenCount !== undefined;

/**
 * Asks the channels' own counting endpoints, in order, as generation calls them (`callChannel`:
 * slots, circuit breakers, fallback on a channel's fault): the request is prepared for each
 * channel as a generation would be (forwarded to its own format, else rendered), then made the
 * provider's count request.
 */
export async function forwardCount(
  services: Pick<GatewayServices, "agent" | "router">,
  input: CountInput,
  candidates: readonly RouteCandidate[],
): Promise<CountResult> {
  const attempts: AttemptRecord[] = [];
  const attempt = async (
    candidate: RouteCandidate,
    context: { traced<R>(run: () => Promise<R>): Promise<R> },
  ): Promise<ChannelTry<Counted>> => {
    const counting = PROTOCOLS[candidate.channel.protocol].tokenCount;
    if (counting === undefined) throw new Error(`${candidate.channel.protocol} counts no tokens`);
    const warnings: Warning[] = [...input.notes];
    // A count sends no sampling: what a render says of it (the messages protocol's default
    // max_tokens) concerns a generation that does not happen.
    const onWarning = (warning: Warning) => {
      if (!warning.feature.startsWith("sampling.")) warnings.push(warning);
    };
    let path: string;
    let body: string;
    let prepared: ReturnType<typeof prepareUpstreamRequest>;
    try {
      prepared = prepareUpstreamRequest({ ...input, stream: false }, candidate, onWarning);
      const generation = parseWireJson(prepared.body) as Record<string, unknown>;
      path = counting.path(candidate.upstreamModel);
      body = stringifyJsonKeepingNumbers(counting.request(generation, candidate.upstreamModel));
    } catch (error) {
      return { kind: "refused", error: thrownRefusal(error) };
    }
    const refusal = input.strict ? strictRefusal(warnings) : undefined;
    if (refusal !== undefined) return { kind: "refused", error: refusal };
    const read = await context.traced(() =>
      sendUpstreamText(services.agent, { ...prepared, path, body }, { signal: input.signal }),
    );
    if (!read.ok) return { kind: "failed", failure: read.failure };
    let tokens: number | undefined;
    try {
      tokens = counting.read(parseWireJson(read.text));
    } catch {
      tokens = undefined;
    }
    if (tokens === undefined) {
      const message = "upstream answered a token count without a count";
      return { kind: "failed", failure: { kind: "malformed", message } };
    }
    return { kind: "ok", value: { candidate, tokens, text: read.text, warnings } };
  };
  const result = await callChannel<Counted>(
    {
      router: services.router,
      candidates,
      attempts,
      signal: input.signal,
      source: input.source,
    },
    { attempt },
  );
  return result.ok
    ? { ok: true, counted: result.value, attempts }
    : { ok: false, error: result.error, attempts };
}
