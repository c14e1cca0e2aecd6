import type { RequestProviderExtras } from "./provider-extras.js";
import type { Request } from "./request.js";
import type { Response } from "./response.js";
import type { StreamEvent } from "./stream-event.js";
import type { RenderOptions } from "./warning.js";

/**
 * One server-sent event as the codecs see it. Structurally the same as `SseEvent` of
 * `@interlingua/sse`, declared here so the canonical model depends on nothing.
 */
export interface SseMessage {
  event?: string;
  data: string;
  id?: string;
  retry?: number;
}

export interface StreamEncodeOptions extends RenderOptions {
  /**
   * The client request's provider extras, for a format whose reply shape the client picks: chat
   * ends with a usage chunk only when `openai.includeUsage` (`stream_options.include_usage`) is set,
   * and renders calls as `function_call` when `openai.legacyFunctions` is.
   */
  providerExtras?: RequestProviderExtras | undefined;
  /**
   * The gateway's id of the request, for a format whose error text names it (messages: an error
   * event's message ends with ` (request id: <id>)`, as its error bodies do).
   */
  requestId?: string | undefined;
  /**
   * The client asked for token logprobs: a format whose text frames carry their own tokens
   * (Responses' `output_text.delta`) holds each text frame until the tokens that follow it.
   */
  logprobs?: boolean | undefined;
}

/**
 * A synchronous stream stage: `push` turns one input into zero or more outputs, `end` emits what
 * is left once input is over. Lets several stages run inside one TransformStream.
 */
export interface PushTransformer<I, O> {
  push(input: I, emit: (output: O) => void): void;
  end(emit: (output: O) => void): void;
}

/**
 * Which frames of a format's stream a reader must decode to learn the usage, the finish and any
 * error, and how to find them cheaply in raw bytes: a gateway relaying a stream unchanged decodes
 * only those, and counts the rest (plain content deltas) without parsing them. Every test leans
 * the safe way: a frame it cannot tell apart is needed, so it is decoded needlessly, never skipped
 * wrongly. Each format's tap is property-tested against that format's own decoder. Its functions
 * use no `this`: a reader may hold them apart from the tap.
 */
export interface FrameTap {
  /**
   * A scan of `text`, the bytes of a run of whole and partial frames read as Latin-1 (one
   * character per byte, so offsets are byte offsets, and no byte of a multi-byte UTF-8 character
   * matches an ASCII key): `needed(from)` is the offset of the first needed key at or after
   * `from`, `text.length` when there is none. Calls with growing `from` cost one pass in all.
   */
  readonly scan: (text: string) => (from: number) => number;
  /** What the text of every content-delta frame starts with: such frames are counted by it. */
  readonly deltaFrameStart: string;
  /** Whether one parsed frame is a plain content delta: text, and nothing the reader needs. */
  readonly plain: (message: SseMessage) => boolean;
}

/**
 * How whole stream messages are written for a client: as SSE frames (`sseFraming` of
 * `@interlingua/sse`), or as a format's own framing (Gemini's streamed JSON array).
 */
export interface StreamFraming {
  /** One message as the text the client reads. */
  frame(message: SseMessage): string;
  /** The text after the last message. */
  close(): string;
  /** The keep-alive that fits between two messages, if the framing has one. */
  keepAlive(): string | undefined;
}

/**
 * The shape every format package exports. `parse` validates and throws a 400 GatewayError naming
 * the field; `render` refuses what the format cannot express with a 400, or drops it and reports a
 * warning, never silently.
 */
export interface Codec<RequestWire = unknown, ResponseWire = unknown> {
  readonly format: string;
  request: {
    parse(wire: unknown): Request;
    render(request: Request, options?: RenderOptions): RequestWire;
  };
  response: {
    /** `onWarning` hears what a reply held that the canonical model only approximates or drops. */
    parse(wire: unknown, options?: RenderOptions): Response;
    render(response: Response, options?: StreamEncodeOptions): ResponseWire;
  };
  stream: {
    decode(): TransformStream<SseMessage, StreamEvent>;
    encode(options?: StreamEncodeOptions): TransformStream<StreamEvent, SseMessage>;
    /** The synchronous form of `decode`, for fusing stages into one TransformStream. */
    decoder(): PushTransformer<SseMessage, StreamEvent>;
    /** The synchronous form of `encode`, for fusing stages into one TransformStream. */
    encoder(options?: StreamEncodeOptions): PushTransformer<StreamEvent, SseMessage>;
    /**
     * The frames a usage-and-finish reader needs, found without decoding; `undefined` when every
     * frame is needed (Gemini puts its cumulative usage on each one).
     */
    frames?: FrameTap | undefined;
  };
}
