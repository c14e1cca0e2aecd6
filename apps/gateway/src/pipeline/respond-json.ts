import type { Response as CanonicalResponse, Usage, Warning } from "@interlingua/core-types";
import { CODECS } from "../codecs.ts";
import { wrapJsonText } from "../http/envelope.ts";
import { UPSTREAM_PROTOCOLS } from "../upstream/upstream-protocols.ts";
import type { Committed } from "./attempt-upstreams.ts";
import type { GenerationRequest } from "./generation-request.ts";

export interface JsonReply {
  body: string;
  /** Usage of the reply, resolved off the hot path on the fast path. */
  usage: () => Usage | undefined;
}

/**
 * The body of a successful non-stream reply. Same format: the upstream's bytes as sent (wrapped
 * by string concatenation, not re-serialised). Across formats: parsed with the upstream's codec,
 * rendered with the client's.
 */
export function renderJsonReply(
  request: GenerationRequest,
  committed: Extract<Committed, { kind: "json" }>,
  warnings: Warning[],
): JsonReply {
  const wrap = (json: string) => (request.wrap ? wrapJsonText(json) : json);
  if (committed.response === undefined) {
    const codec = CODECS[UPSTREAM_PROTOCOLS[committed.candidate.channel.protocol].format];
    return {
      body: wrap(committed.text),
      usage: () => usageOf(() => codec.response.parse(committed.json)),
    };
  }
  const response = committed.response;
  const rendered = CODECS[request.endpoint.format].response.render(response, {
    onWarning: (w) => warnings.push(w),
  });
  return { body: wrap(JSON.stringify(rendered)), usage: () => response.usage };
}

function usageOf(parse: () => CanonicalResponse): Usage | undefined {
  try {
    return parse().usage;
  } catch {
    return undefined;
  }
}
