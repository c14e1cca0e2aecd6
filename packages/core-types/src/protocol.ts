import type { CachePlan, CachePlanInput } from "./cache-plan.js";
import type { Codec } from "./codec.js";
import type { Request } from "./request.js";
import type { RequestFieldTable } from "./request-fields.js";
import type { ToolNameRule } from "./tool-names.js";
import type { Usage } from "./usage.js";
import type { Warning } from "./warning.js";
import type { UpstreamProtocol, WireFormat } from "./wire-format.js";

/** Client headers a gateway passes on to a provider (lowercased names), for it to use or ignore. */
export type ForwardedHeaders = Readonly<Record<string, string | undefined>>;

/** A client body sent on to its own provider unchanged but for these edits. */
export interface ForwardedBody {
  readonly wire: Record<string, unknown>;
  /** A usage report the client did not ask for was asked for (the gateway keeps it from the client). */
  readonly injectedUsage: boolean;
}

/** Text edits to a relayed reply (`Protocol.relayEdits`): no parse, no re-serialisation. */
export interface RelayEdits {
  body(json: string): string;
  /** One relayed frame's text; `requestId`, the gateway's, for an error frame that names it. */
  frame(text: string, requestId?: string): string;
}

/** Keys from a body's root to one field; `*` stands for every element of an array. */
export type WirePath = readonly string[];

/** What a provider's error reader is told beside the body. */
export interface ProtocolErrorOptions {
  /** The provider's Retry-After header, when it sent one. */
  retryAfter?: string | null;
}

/** The kinds of task a gateway runs as upstream jobs (`POST /v1/videos`, `/v1/images/generations`). */
export type MediaTaskKind = "video" | "image";

/**
 * What a provider serves beside generation, declared by its protocol so that a gateway routes
 * media by capability and never by provider name.
 */
export interface ProtocolMedia {
  /**
   * It speaks OpenAI's audio API (bodies in `@interlingua/fmt-chat/media`): the paths, under a
   * channel's base URL, of text to speech and of speech to text.
   */
  readonly audio?: { readonly speech: string; readonly transcriptions: string };
  /**
   * The job wire each kind of task takes on this provider, by name (`veo`, `openai-images`,
   * `gemini-images`): a gateway keeps one job per name, and stores the name with the task.
   */
  readonly tasks?: Readonly<Partial<Record<MediaTaskKind, string>>>;
}

/**
 * A provider's endpoint that counts the prompt tokens of a request without generating (Anthropic
 * `count_tokens`, Gemini `countTokens`, OpenAI `input_tokens`), and its format's client side: what
 * a client's count body stands for and the body its client expects back. Pure data and functions.
 */
export interface ProtocolTokenCount {
  /** Path under a channel's base URL. */
  path(model: string): string;
  /** The generation request a client's count body stands for, for the client codec to parse. */
  generation(count: Record<string, unknown>): Record<string, unknown>;
  /**
   * The count request for a generation body made for this provider (forwarded or rendered, with
   * `model` the provider's own id): the fields that say nothing of the prompt are left out.
   */
  request(generation: Record<string, unknown>, model: string): Record<string, unknown>;
  /** The prompt tokens a provider's reply states; undefined when the reply is no count. */
  read(reply: unknown): number | undefined;
  /** The reply a client of this format expects for a count of `tokens`. */
  reply(tokens: number): Record<string, unknown>;
  /** A client may leave the model out (the provider then counts for a default model). */
  readonly modelOptional: boolean;
}

/**
 * One provider's whole wire, owned by the format package that speaks it: the codecs, where and how
 * to call it, what a body forwarded to it unchanged still needs, what a translated one needs
 * before and after rendering, how it says an error, how it caches, and the client format's field
 * table. Pure data and functions, no I/O: a gateway keeps one registry of these and knows no
 * provider by name. `E` is the error its reader makes (the format packages: `GatewayError`).
 */
export interface Protocol<E = Error> {
  /** The client format of this protocol's endpoint. */
  readonly format: WireFormat;
  /** The channel protocol that speaks this wire upstream. */
  readonly upstream: UpstreamProtocol;
  /** Parses the client's requests and renders its replies and streams. */
  readonly codec: Codec;
  /** Renders upstream requests and parses the provider's replies and streams. */
  readonly upstreamCodec: Codec;
  /** A client body of `format` reaches `upstream` byte for byte (false: the client shape differs). */
  readonly forwardsClientBody: boolean;
  /** A client format whose extras (fields the canonical model does not hold) `upstreamCodec` writes back. */
  readonly carries?: WireFormat;
  /** Each request field of the client format: mapped, warned or refused. */
  readonly requestFields: RequestFieldTable;
  /** The client's fields a render into another format leaves behind (its extras). */
  untranslatedFields(request: Request): string[];
  /**
   * A client request whose meaning no other protocol keeps (server-held state, as a messages
   * `thread` to continue): the error to answer instead of rendering it elsewhere, if any.
   */
  untranslatable?(request: Request): E | undefined;
  /** Path under a channel's base URL. */
  path(model: string, stream: boolean): string;
  /** Cheap authenticated GETs that check a key (a models list), tried in order until one answers. */
  readonly probes: readonly string[];
  /** The provider's auth and version headers. */
  headers(apiKey: string, forwarded?: ForwardedHeaders): Record<string, string>;
  /** The function names the provider accepts: others are renamed there and back. */
  readonly toolNames: ToolNameRule;
  /** The provider keeps thought text back unless asked (a client that shows it by default asks). */
  readonly hidesThoughts: boolean;
  /** The provider streams usage only when the request asks for it (chat `providerExtras.openai.includeUsage`). */
  readonly usageOnRequest: boolean;
  /**
   * The provider returns several outputs from one call (chat `n`, Gemini `candidateCount`); false:
   * one per call, so a gateway asked for several makes one call per output (`mergeResponses`).
   */
  readonly severalOutputs: boolean;
  /**
   * The format's clients read SSE comments (a keep-alive, a stream's closing warnings). Gemini's
   * do not: its SDKs as bundled in Gemini CLI match `data:` lines only and fail on anything else.
   */
  readonly streamComments: boolean;
  /** Edits a client body forwarded unchanged still needs (the upstream model id, usage reports). */
  forward(
    wire: Record<string, unknown>,
    model: string,
    stream: boolean,
    onWarning: (warning: Warning) => void,
  ): ForwardedBody;
  /**
   * Where a client body forwarded as sent may hold `cache_control` that is only the gateway's
   * hint, not the provider's field (docs/api-reference.md, caching rule 8): removed and reported
   * before the body goes. Unset: the provider takes `cache_control` where the client put it.
   */
  readonly hintCacheControlAt?: readonly WirePath[];
  /** What the provider needs said another way, before a canonical request is rendered for it. */
  prepare?(request: Request, onWarning: (warning: Warning) => void): Request;
  /** The gateway's own fields on a rendered body (not on a forwarded one). */
  finish?(body: Record<string, unknown>): Record<string, unknown>;
  /**
   * Cheap text edits to a same-format reply relayed as the provider sent it, for fields the client
   * format always carries that the provider may leave out: `body` gets a whole non-stream body,
   * `frame` each relayed stream frame it must see (its raw SSE text, or its data; a format that
   * names the model once may leave its content deltas unseen). Unset: relayed unchanged.
   */
  readonly relayEdits?: RelayEdits;
  /**
   * The usage of a whole parsed reply, read without the codec's validating parse (billing reads
   * every relayed reply): exactly what `upstreamCodec.response.parse` makes of a usage the
   * schema takes; undefined when none is there or any of it is out of schema (parse decides).
   */
  readonly replyUsage?: (reply: unknown) => Usage | undefined;
  /** How this provider caches a prompt prefix the client marked (its markers, or a resource). */
  cachePlan(input: CachePlanInput): CachePlan;
  /**
   * The provider's error body as the error its client sees: the status mapped (429 stays,
   * provider faults become 502/503), the client's own mistakes in the provider's words, keys
   * stripped.
   */
  parseError(status: number, body: unknown, options?: ProtocolErrorOptions): E;
  /**
   * Who runs the provider, in OpenTelemetry's `gen_ai.provider.name` terms. Protocols of one
   * vendor share reply conventions a translation between them keeps (OpenAI's service tier).
   */
  readonly vendor: string;
  /** `gen_ai.operation.name` of a call on this protocol's client endpoint. */
  readonly operation: string;
  /** The provider takes OpenAI's namespace and custom tools as they are (else: function tools). */
  readonly clientTools: boolean;
  /** Audio and task endpoints it serves beside generation; unset: none. */
  readonly media?: ProtocolMedia;
  /** Its endpoint that counts a request's prompt tokens; unset: it has none. */
  readonly tokenCount?: ProtocolTokenCount;
}
