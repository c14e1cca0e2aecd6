import {
  type Codec,
  outputsOf,
  type RenderOptions,
  type Request,
  type Response,
  type SseMessage,
  type StreamEvent,
  type Usage,
} from "@interlingua/core-types";
import { withoutProviderExtras } from "@interlingua/core-types/testing";
import { chat } from "@interlingua/fmt-chat";
import { messages } from "@interlingua/fmt-messages";
import { native, parseNativeRequest } from "@interlingua/fmt-native";
import { interlinguaResponses, responses } from "@interlingua/fmt-responses";
import { decodeSseText, encodeSseEvent } from "@interlingua/sse";

export const codecs: Record<string, Codec> = {
  chat,
  messages,
  native,
  interlinguaResponses,
  responses,
};
export const codecNames = Object.keys(codecs);

/** Encoder options of a client that asked for usage: chat then ends with its usage chunk. */
export const withUsageChunk = { providerExtras: { openai: { includeUsage: true } } };
export const pairs = codecNames.flatMap((f) =>
  codecNames.filter((g) => g !== f).map((g) => [f, g] as const),
);

/** Runs values through a TransformStream and collects the output. */
export async function pipe<I, O>(
  values: readonly I[],
  stream: TransformStream<I, O>,
): Promise<O[]> {
  const out: O[] = [];
  const writer = stream.writable.getWriter();
  const reading = (async () => {
    const reader = stream.readable.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      out.push(value);
    }
  })();
  for (const value of values) await writer.write(value);
  await writer.close();
  await reading;
  return out;
}

/** Canonical events -> format F's SSE text -> back to canonical events, through real bytes. */
export async function throughWire(
  codec: Codec,
  events: readonly StreamEvent[],
): Promise<StreamEvent[]> {
  const frames = await pipe(events, codec.stream.encode(withUsageChunk));
  const text = frames.map((f) => encodeSseEvent(f)).join("");
  return decodeWire(codec, text);
}

export async function decodeWire(codec: Codec, sseText: string): Promise<StreamEvent[]> {
  const messages: SseMessage[] = decodeSseText(sseText);
  return pipe(messages, codec.stream.decode());
}

/** A plain-JSON copy (no undefined keys, no prototype-less objects) for deep equality. */
export const asJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * Render a canonical request to format F's wire body and parse it back, as a client of F would
 * send it. The native body has no model or stream flag: they live in the URL path
 * (`/v1beta/models/{model}:streamGenerateContent`), so they travel beside the body as the gateway
 * passes them.
 */
export function requestThrough(codec: Codec, request: Request, options?: RenderOptions): Request {
  const wire = codec.request.render(request, options);
  if (codec === native) {
    return parseNativeRequest(wire, { model: request.model, stream: request.stream });
  }
  return codec.request.parse(wire);
}

/**
 * What law 5 compares on requests: everything but the per-format extras bags and chat's
 * `includeUsage`, a client's transport flag (`stream_options.include_usage`), not content: the
 * other formats always stream usage, so they set it or leave it unset by their own convention.
 */
export function requestContent(request: Request): Request {
  const { extras: _extras, ...rest } = asJson(request);
  return withoutProviderExtras(rest, "openai");
}

/**
 * The usage counts every format carries. The rest is one format's detail, so for every pair at
 * least one side cannot express it: the cache-write ttl split (messages only; the messages render
 * derives it from cacheWriteTokens, reporting unsplit writes as 5-minute, as docs/api-reference.md's full usage
 * object requires), tokens by modality (native only), service tier and inference geo (dropped by
 * the responses result and by chat/native respectively, per their loss tables).
 */
export function commonUsage(usage: Usage) {
  const { inputTokens, outputTokens, cachedInputTokens, cacheWriteTokens, thinkingTokens } = usage;
  return { inputTokens, outputTokens, cachedInputTokens, cacheWriteTokens, thinkingTokens };
}

/** What law 5 compares on responses: content, finish reason (unified) and the common usage. */
export function responseContent(response: Response) {
  const r = asJson(response);
  return {
    model: r.model,
    outputs: outputsOf(r).map((c) => ({
      index: c.index,
      parts: c.message.parts,
      finish: c.finishReason.unified,
    })),
    usage: commonUsage(r.usage),
  };
}
