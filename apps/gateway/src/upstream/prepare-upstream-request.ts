import type { Request, Warning } from "@interlingua/core-types";
import { CODECS } from "../codecs.ts";
import type { GenerationRequest } from "../pipeline/generation-request.ts";
import type { RouteCandidate } from "../routing/model-router.ts";
import { UPSTREAM_PROTOCOLS } from "./upstream-protocols.ts";

export interface PreparedUpstreamRequest {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** The client format equals the upstream protocol: bytes pass through untouched. */
  readonly sameFormat: boolean;
  /**
   * The gateway asked an OpenAI upstream for a usage frame the client did not ask for (billing
   * needs it); that frame is then kept from the client.
   */
  readonly injectedUsage: boolean;
}

type Wire = Record<string, unknown>;

/**
 * The gateway's own edits to a body forwarded in its own format: the upstream model id, and for
 * OpenAI streams a usage frame. Gemini names the model in the path, not the body.
 */
const SAME_FORMAT_EDITS: Record<
  "chat" | "messages" | "native",
  (wire: Wire, model: string, stream: boolean) => { body: Wire; injectedUsage: boolean }
> = {
  chat: (wire, model, stream) => {
    const options = (wire["stream_options"] ?? {}) as Wire;
    const inject = stream && options["include_usage"] !== true;
    return {
      body: inject
        ? { ...wire, model, stream_options: { ...options, include_usage: true } }
        : { ...wire, model },
      injectedUsage: inject,
    };
  },
  messages: (wire, model) => ({ body: { ...wire, model }, injectedUsage: false }),
  // A body `model` (which clients may send) could contradict the path's upstream id.
  native: ({ model: _model, ...wire }) => ({ body: wire, injectedUsage: false }),
};

export function prepareUpstreamRequest(
  request: GenerationRequest,
  candidate: RouteCandidate,
  onWarning: (warning: Warning) => void,
  /** A request the cache plan rewrote: rendered even in the client's own format. */
  planned?: Request,
): PreparedUpstreamRequest {
  const { channel, upstreamModel } = candidate;
  const protocol = UPSTREAM_PROTOCOLS[channel.protocol];
  const url = channel.baseUrl + protocol.path(upstreamModel, request.stream);
  const headers = {
    "content-type": "application/json",
    accept: request.stream ? "text/event-stream" : "application/json",
    ...protocol.headers(channel.apiKey, request.upstream),
  };
  const sameFormat = protocol.format === request.endpoint.format;
  if (sameFormat && planned === undefined) {
    const { body, injectedUsage } = SAME_FORMAT_EDITS[protocol.format](
      request.wire,
      upstreamModel,
      request.stream,
    );
    return { url, headers, body: JSON.stringify(body), sameFormat: true, injectedUsage };
  }
  // An OpenAI upstream only reports streamed usage when asked; billing always needs it.
  const askUsage = request.stream && protocol.format === "chat";
  const canonical: Request = {
    ...(planned ?? request.canonical),
    model: upstreamModel,
    stream: request.stream,
    ...(askUsage ? { includeUsage: true } : {}),
  };
  const body = CODECS[protocol.format].request.render(canonical, { onWarning }) as Wire;
  // A rendered body in the client's own format still gets its reply back byte for byte.
  const injectedUsage = sameFormat && askUsage && request.canonical.includeUsage !== true;
  return { url, headers, body: JSON.stringify(body), sameFormat, injectedUsage };
}
