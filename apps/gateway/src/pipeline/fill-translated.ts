import {
  type Response as CanonicalResponse,
  type PushTransformer,
  restoreToolNameEvent,
  type SseMessage,
  type StreamEvent,
  type Usage,
} from "@interlingua/core-types";

/**
 * What a translated reply must say even when its upstream did not (Anthropic and Gemini have no
 * creation time; an id or model may be missing): `created` is the time of the call, never 0; a
 * missing id is the gateway's request id, a missing model the one the client asked for, never "".
 * Thinking tokens the upstream folds into its output count (Anthropic) are estimated from the
 * thinking text (4 characters a token, at most the output), so `reasoning_tokens` is not 0 when
 * the model thought. The same-format fast path never comes here: its bytes are the upstream's.
 */
export interface FillContext {
  /** Unix seconds when the call was made. */
  readonly now: number;
  readonly requestId: string;
  /** The model as the client named it. */
  readonly model: string;
  /** Tool names renamed for the upstream, back to the client's (core-types `renameTools`). */
  readonly toolNames?: ReadonlyMap<string, string> | undefined;
}

const estimateThinking = (usage: Usage, thinkingChars: number): Usage =>
  usage.thinkingTokens > 0 || thinkingChars === 0
    ? usage
    : { ...usage, thinkingTokens: Math.min(usage.outputTokens, Math.ceil(thinkingChars / 4)) };

export function fillResponse(response: CanonicalResponse, ctx: FillContext): CanonicalResponse {
  let thinkingChars = 0;
  for (const choice of response.choices) {
    for (const part of choice.message.parts) {
      if (part.type === "thinking") thinkingChars += part.text.length;
    }
  }
  return {
    ...response,
    id: response.id === "" ? ctx.requestId : response.id,
    model: response.model === "" ? ctx.model : response.model,
    created: response.created > 0 ? response.created : ctx.now,
    usage: estimateThinking(response.usage, thinkingChars),
  };
}

/** The same for a stream: the upstream decoder, its events filled on the way out. */
export function fillingDecoder(
  decoder: PushTransformer<SseMessage, StreamEvent>,
  ctx: FillContext,
): PushTransformer<SseMessage, StreamEvent> {
  let thinkingChars = 0;
  const fill =
    (emit: (event: StreamEvent) => void) =>
    (event: StreamEvent): void => {
      switch (event.type) {
        case "response-start":
          emit({
            ...event,
            id: event.id === "" ? ctx.requestId : event.id,
            model: event.model === "" ? ctx.model : event.model,
            created: event.created > 0 ? event.created : ctx.now,
          });
          return;
        case "thinking-delta":
          thinkingChars += event.delta.length;
          emit(event);
          return;
        case "tool-call-start":
          emit(ctx.toolNames === undefined ? event : restoreToolNameEvent(event, ctx.toolNames));
          return;
        case "usage":
          emit({ ...event, usage: estimateThinking(event.usage, thinkingChars) });
          return;
        default:
          emit(event);
      }
    };
  return {
    push: (message, emit) => decoder.push(message, fill(emit)),
    end: (emit) => decoder.end(fill(emit)),
  };
}

/** The fill context of one call: now on the gateway's clock, its request id and client model. */
export const fillContext = (
  services: { readonly now: () => number },
  request: { readonly requestId: string; readonly model: string },
): FillContext => ({
  now: Math.floor(services.now() / 1000),
  requestId: request.requestId,
  model: request.model,
});
