import {
  type AssistantPart,
  type Response as CanonicalResponse,
  type Codec,
  findIncompleteToolCall,
  incompleteToolCallMessage,
  isUsageKnown,
  mapOutputs,
  outputsOf,
  renameReplyModel,
  restoreToolNames,
  stringifyJsonKeepingNumbers,
  type Usage,
  type Warning,
} from "@interlingua/core-types";
import { badGateway } from "@interlingua/errors";
import { carryThinkingSignatures } from "@interlingua/fmt-native/internal";
import { responses } from "@interlingua/fmt-responses";
import { replyTextChars } from "../billing/reply-text-chars.ts";
import { wrapJsonText } from "../contract/client-contract.ts";
import { CLIENT_PROTOCOLS, PROTOCOLS } from "../upstream/protocols.ts";
import type { Committed } from "./attempt-upstreams.ts";
import { type FillContext, fillResponse } from "./fill-translated.ts";
import type { ClientCall, ParsedGeneration, ReplyShape } from "./generation-request.ts";

type JsonCommitted = Extract<Committed, { kind: "json" }>;

/** What a non-stream upstream reply delivered, for billing. */
export interface JsonDelivery {
  /** The usage the upstream reported; undefined when its reply carries none. */
  readonly usage: Usage | undefined;
  /** Characters of generated text, thinking and tool-call arguments in the reply. */
  readonly outputChars: number;
  /** The first output's unified finish reason (traces), when the reply could be read. */
  readonly finishReason?: string | undefined;
}

export interface JsonReply {
  body: string;
  /** The reply as the client's codec saw it (translated replies only). */
  translated?: CanonicalResponse;
  /** What the upstream delivered, resolved off the hot path on the fast path. */
  delivered: () => JsonDelivery;
}

/**
 * A JSON reply as text, redacted when it was made: the Node route writes it as it is, with no
 * web Response to build and read back (the Hono route makes one of it, `toResponse`).
 */
export class TextReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;

  constructor(status: number, headers: Readonly<Record<string, string>>, text: string) {
    this.status = status;
    this.headers = headers;
    this.text = text;
  }

  toResponse(): Response {
    return new Response(this.text, { status: this.status, headers: this.headers });
  }
}

/**
 * The body of a successful non-stream reply. Same format: the upstream's bytes as sent (wrapped
 * by string concatenation, not re-serialised). Across formats: parsed with the upstream's codec,
 * rendered with the client's.
 */
export function renderJsonReply(
  request: Pick<ClientCall, "endpoint"> &
    Pick<ReplyShape, "wrap"> &
    Pick<ParsedGeneration, "canonical">,
  committed: JsonCommitted,
  warnings: Warning[],
  fill?: FillContext,
  /** Top-level fields added to the rendered body (a bare Responses object's `store`). */
  extra?: Record<string, unknown>,
): JsonReply {
  const wrap = (json: string) => (request.wrap ? wrapJsonText(json) : json);
  const delivered = () => jsonDelivery(committed);
  if (committed.response === undefined) {
    // The upstream's bytes, but the model named as the client named it (fill-translated.ts),
    // and with the fields the client's format always has (its protocol's relay edits).
    const text =
      fill === undefined
        ? committed.text
        : renameReplyModel(request.endpoint.format, committed.text, fill.model);
    const edits = CLIENT_PROTOCOLS[request.endpoint.format].relayEdits;
    return { body: wrap(edits === undefined ? text : edits.body(text)), delivered };
  }
  // A tool call cut by a max-tokens stop fails as the same reply streamed does (the stream's
  // guardToolArguments): never half arguments in another format, nor an invented "{}".
  const incomplete = findIncompleteToolCall(committed.response);
  if (incomplete !== undefined) throw badGateway(incompleteToolCallMessage(incomplete));
  const named = committed.prepared.toolNames;
  const response =
    named === undefined ? committed.response : restoreToolNames(committed.response, named);
  const filled = fill === undefined ? response : fillResponse(response, fill);
  // Gemini clients keep no thought parts: another provider's thinking signature rides, with its
  // text, on the next visible part (fmt-native carried-thinking.ts), as a stream's does.
  const translated =
    request.endpoint.format === "native"
      ? mapOutputs(filled, (output) => ({
          ...output,
          message: { ...output.message, parts: carryThinkingSignatures(output.message.parts) },
        }))
      : filled;
  // The reply's shape the client picked in its request (chat's deprecated `functions`).
  const rendered = clientCodec(request).response.render(translated, {
    onWarning: (w) => warnings.push(w),
    providerExtras: request.canonical.providerExtras,
  });
  const body = extra === undefined ? rendered : { ...(rendered as object), ...extra };
  return { body: wrap(stringifyJsonKeepingNumbers(body)), delivered, translated };
}

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
  for (const output of outputsOf(response)) {
    for (const part of output.message.parts) {
      chars += (PART_CHARS[part.type] as (part: AssistantPart) => number)(part);
    }
  }
  return chars;
}

/**
 * What a committed non-stream reply delivered; never throws. It is read even when rendering the
 * reply for the client failed: the upstream still did (and billed) the work. A same-format reply
 * whose usage its protocol reads without a parse (`replyUsage`) is parsed only if its characters
 * or finish reason are asked for (an estimate, a trace): it went to the client as sent, so its
 * reported usage is charged even if the codec would refuse the rest of it. A reply without such
 * a usage that the upstream codec cannot parse counts the text in its body as delivered output.
 */
export function jsonDelivery(committed: JsonCommitted): JsonDelivery {
  if (committed.response === undefined) {
    const usage = PROTOCOLS[committed.candidate.channel.protocol].replyUsage?.(committed.json);
    if (usage !== undefined) return new ReadUsageDelivery(usage, () => parsedDelivery(committed));
  }
  return parsedDelivery(committed);
}

/** A delivery whose usage was read without a parse: the rest comes of one, made when asked. */
class ReadUsageDelivery implements JsonDelivery {
  readonly usage: Usage;
  readonly #parse: () => JsonDelivery;
  #parsed: JsonDelivery | undefined;

  constructor(usage: Usage, parse: () => JsonDelivery) {
    this.usage = usage;
    this.#parse = parse;
  }

  get outputChars(): number {
    this.#parsed ??= this.#parse();
    return this.#parsed.outputChars;
  }

  get finishReason(): string | undefined {
    this.#parsed ??= this.#parse();
    return this.#parsed.finishReason;
  }
}

function parsedDelivery(committed: JsonCommitted): JsonDelivery {
  const protocol = committed.candidate.channel.protocol;
  let response = committed.response;
  if (response === undefined) {
    try {
      response = PROTOCOLS[protocol].upstreamCodec.response.parse(committed.json);
    } catch {
      // Its text only, as a stream's estimate counts it: never the JSON around it.
      return { usage: undefined, outputChars: replyTextChars(committed.json) };
    }
  }
  const first = outputsOf(response)[0];
  return {
    // A reply without usage parses to `known: false`: unknown, to be estimated, not a free call.
    usage: isUsageKnown(response.usage) ? response.usage : undefined,
    outputChars: outputChars(response),
    ...(first === undefined ? {} : { finishReason: first.finishReason.unified }),
  };
}

// The codec a client's whole reply is rendered with.

/**
 * The codec that renders a client's reply. Bare bodies are "the provider's own wire format"
 * (DESIGN.md §3): for `/v1/responses` that is OpenAI's real Responses API (`output[]` items), so
 * the official SDKs work; with the spec envelope it is docs/api-reference.md's chat-like result. Both share the
 * request parser and the stream encoder, which already speak OpenAI's events.
 */
function clientCodec(request: Pick<ClientCall, "endpoint"> & Pick<ReplyShape, "wrap">): Codec {
  if (request.endpoint.format === "responses" && !request.wrap) return responses;
  return CLIENT_PROTOCOLS[request.endpoint.format].codec;
}
