import type { CacheAnalysis } from "@interlingua/cache-control";
import type { Request, Warning } from "@interlingua/core-types";
import type { AuthenticatedToken } from "../auth/token-store.ts";
import type { EndpointSpec } from "../contract/endpoints.ts";
import type { RequestLog } from "../log/request-log.ts";
import type { StorePlan } from "../responses/stored-state.ts";
import type { UpstreamCallOptions } from "../upstream/protocols.ts";

/** Who asked and where: what every stage logs, bills to and answers (in the endpoint's envelope). */
export interface ClientCall {
  readonly endpoint: EndpointSpec;
  readonly requestId: string;
  readonly token: AuthenticatedToken;
  readonly log: RequestLog;
  /** Aborts when the client disconnects: an upstream call under way is then cancelled. */
  readonly signal?: AbortSignal;
}

/** What was asked: the body as sent and as parsed, for routing, caching and the upstream call. */
export interface ParsedGeneration {
  /** The client's JSON body as sent: the same-format fast path forwards it after its own edits. */
  readonly wire: Record<string, unknown>;
  /** The body parsed with the client's codec. */
  readonly canonical: Request;
  /** Its cache boundary (chat and native; `none` elsewhere). */
  readonly cache: CacheAnalysis;
  /** The model as the client named it. */
  readonly model: string;
  readonly stream: boolean;
  /** Client headers the upstream call carries on (Anthropic version and beta). */
  readonly upstream: UpstreamCallOptions;
  /** `x-interlingua-strict: true`: a request that would lose a field is refused (400) instead. */
  readonly strict?: boolean;
  /** A responses call kept for `store: true`: its response id and conversation (issue 25). */
  readonly stored?: StorePlan;
  /** What the gateway's own reading of the request left out (stored history), for the header. */
  readonly notes?: readonly Warning[];
}

/** How the reply goes out. */
export interface ReplyShape {
  /** Native streamGenerateContent without `alt=sse`: the reply is a streamed JSON array. */
  readonly jsonArrayStream: boolean;
  /** Whether a successful non-stream body gets the `{code: 200, data}` wrapper. */
  readonly wrap: boolean;
  /** The front door writes a streamed reply itself (`writeRelay`): no web-stream body. */
  readonly writesDirectly: boolean;
}

/**
 * One client generation request, authenticated, read and parsed with its endpoint's codec: the
 * three parts together, as the handler builds them. A stage takes the parts it reads; the
 * stages below the pipeline (billing, cache, upstream) declare their own narrower inputs.
 */
export type GenerationRequest = ClientCall & ParsedGeneration & ReplyShape;
