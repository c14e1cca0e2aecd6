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
  /** Emit a usage frame (OpenAI only sends it when stream_options.include_usage was set). */
  includeUsage?: boolean;
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
    parse(wire: unknown): Response;
    render(response: Response, options?: RenderOptions): ResponseWire;
  };
  stream: {
    decode(): TransformStream<SseMessage, StreamEvent>;
    encode(options?: StreamEncodeOptions): TransformStream<StreamEvent, SseMessage>;
    /** The synchronous form of `decode`, for fusing stages into one TransformStream. */
    decoder(): PushTransformer<SseMessage, StreamEvent>;
    /** The synchronous form of `encode`, for fusing stages into one TransformStream. */
    encoder(options?: StreamEncodeOptions): PushTransformer<StreamEvent, SseMessage>;
  };
}
