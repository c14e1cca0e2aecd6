import type {
  AssistantPart,
  Response as CanonicalResponse,
  UpstreamProtocol,
  Usage,
  Warning,
} from "@interlingua/core-types";
import { wrapJsonText } from "../http/envelope.ts";
import { UPSTREAM_PROTOCOLS } from "../upstream/upstream-protocols.ts";
import type { Committed } from "./attempt-upstreams.ts";
import { clientCodec } from "./client-codec.ts";
import { type FillContext, fillResponse } from "./fill-translated.ts";
import type { GenerationRequest } from "./generation-request.ts";

type JsonCommitted = Extract<Committed, { kind: "json" }>;

/** What a non-stream upstream reply delivered, for billing. */
export interface JsonDelivery {
  /** The usage the upstream reported; undefined when its reply carries none. */
  readonly usage: Usage | undefined;
  /** Characters of generated text, thinking and tool-call arguments in the reply. */
  readonly outputChars: number;
}

export interface JsonReply {
  body: string;
  /** What the upstream delivered, resolved off the hot path on the fast path. */
  delivered: () => JsonDelivery;
}

/**
 * The body of a successful non-stream reply. Same format: the upstream's bytes as sent (wrapped
 * by string concatenation, not re-serialised). Across formats: parsed with the upstream's codec,
 * rendered with the client's.
 */
export function renderJsonReply(
  request: GenerationRequest,
  committed: JsonCommitted,
  warnings: Warning[],
  fill?: FillContext,
): JsonReply {
  const wrap = (json: string) => (request.wrap ? wrapJsonText(json) : json);
  const delivered = () => jsonDelivery(committed);
  if (committed.response === undefined) return { body: wrap(committed.text), delivered };
  const translated =
    fill === undefined ? committed.response : fillResponse(committed.response, fill);
  const rendered = clientCodec(request).response.render(translated, {
    onWarning: (w) => warnings.push(w),
  });
  return { body: wrap(JSON.stringify(rendered)), delivered };
}

// Where each protocol's non-stream reply reports usage. The codecs parse a reply without it to
// zero usage, which must not be billed as a free call: its absence is read off the wire.
const USAGE_FIELD: Record<UpstreamProtocol, string> = {
  openai: "usage",
  anthropic: "usage",
  gemini: "usageMetadata",
  "openai-responses": "usage",
};

const reportsUsage = (json: unknown, protocol: UpstreamProtocol): boolean =>
  typeof json === "object" &&
  json !== null &&
  (json as Record<string, unknown>)[USAGE_FIELD[protocol]] != null;

/** Characters a reply part generated (media output is billed by its model's own prices). */
const PART_CHARS: {
  [K in AssistantPart["type"]]: (part: Extract<AssistantPart, { type: K }>) => number;
} = {
  text: (p) => p.text.length,
  thinking: (p) => p.text.length,
  "redacted-thinking": (p) => p.data.length,
  "tool-call": (p) => p.name.length + p.arguments.length,
  image: () => 0,
  file: () => 0,
};

function outputChars(response: CanonicalResponse): number {
  let chars = 0;
  for (const choice of response.choices) {
    for (const part of choice.message.parts) {
      chars += (PART_CHARS[part.type] as (part: AssistantPart) => number)(part);
    }
  }
  return chars;
}

/**
 * What a committed non-stream reply delivered; never throws. It is read even when rendering the
 * reply for the client failed: the upstream still did (and billed) the work. A same-format reply
 * the upstream codec cannot parse counts its whole body as delivered output.
 */
export function jsonDelivery(committed: JsonCommitted): JsonDelivery {
  const protocol = committed.candidate.channel.protocol;
  let response = committed.response;
  if (response === undefined) {
    try {
      response = UPSTREAM_PROTOCOLS[protocol].codec.response.parse(committed.json);
    } catch {
      return { usage: undefined, outputChars: committed.text.length };
    }
  }
  return {
    usage: reportsUsage(committed.json, protocol) ? response.usage : undefined,
    outputChars: outputChars(response),
  };
}
