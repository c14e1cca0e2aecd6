import {
  type Response as CanonicalResponse,
  clientToolOrigins,
  liftClientToolCalls,
  liftingClientToolCalls,
  outputsOf,
  type PushTransformer,
  restoreToolNameEvent,
  type SseMessage,
  type StreamEvent,
  type Tool,
  type ToolOrigin,
  type UpstreamProtocol,
  type Usage,
  type WireFormat,
} from "@interlingua/core-types";
import { newResponseId } from "../responses/stored-state.ts";
import { CLIENT_PROTOCOLS, PROTOCOLS } from "../upstream/protocols.ts";

/**
 * What a translated reply must say even when its upstream did not (Anthropic and Gemini have no
 * creation time; an id may be missing): `created` is the time of the call, never 0; a missing id
 * is the gateway's request id. The model is always the one the client asked for (an alias or the
 * gateway's id, not the upstream's: Claude Code keeps its signed thinking only for the model it
 * asked for); the upstream's id is in the `x-interlingua-upstream-model` header.
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
  /**
   * The id that replaces the upstream's: a stored response's own (the client names it later), or
   * for any other Responses client a fresh `resp_` one, as OpenAI's ids are (Anthropic's `msg_`,
   * a chat completion's `chatcmpl-` or Gemini's response id are not Response ids).
   */
  readonly responseId?: string;
  /**
   * The upstream's service tier means something to the client: both speak OpenAI. Each provider
   * has its own vocabulary (OpenAI `default`, Anthropic `standard`, Gemini's own), so another
   * provider's value is left out rather than copied into a field whose values it is not.
   */
  readonly keepServiceTier: boolean;
  /** The client's namespace and custom tools by the function names they were lowered to. */
  readonly toolOrigins?: ReadonlyMap<string, ToolOrigin>;
  /** Tool names renamed for the upstream, back to the client's (core-types `renameTools`). */
  readonly toolNames?: ReadonlyMap<string, string> | undefined;
}

const estimateThinking = (usage: Usage, thinkingChars: number): Usage =>
  usage.thinkingTokens > 0 || thinkingChars === 0
    ? usage
    : { ...usage, thinkingTokens: Math.min(usage.outputTokens, Math.ceil(thinkingChars / 4)) };

const withoutTier = (usage: Usage, ctx: FillContext): Usage => {
  if (ctx.keepServiceTier || usage.serviceTier === undefined) return usage;
  const { serviceTier: _other, ...rest } = usage;
  return rest;
};

export function fillResponse(response: CanonicalResponse, ctx: FillContext): CanonicalResponse {
  let thinkingChars = 0;
  for (const output of outputsOf(response)) {
    for (const part of output.message.parts) {
      if (part.type === "thinking") thinkingChars += part.text.length;
    }
  }
  const lifted =
    ctx.toolOrigins === undefined ? response : liftClientToolCalls(response, ctx.toolOrigins);
  return {
    ...lifted,
    id: ctx.responseId ?? (response.id === "" ? ctx.requestId : response.id),
    model: ctx.model,
    created: response.created > 0 ? response.created : ctx.now,
    usage: withoutTier(estimateThinking(response.usage, thinkingChars), ctx),
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
            id: ctx.responseId ?? (event.id === "" ? ctx.requestId : event.id),
            model: ctx.model,
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
          emit({ ...event, usage: withoutTier(estimateThinking(event.usage, thinkingChars), ctx) });
          return;
        default:
          emit(event);
      }
    };
  const filled: PushTransformer<SseMessage, StreamEvent> = {
    push: (message, emit) => decoder.push(message, fill(emit)),
    end: (emit) => decoder.end(fill(emit)),
  };
  return ctx.toolOrigins === undefined ? filled : liftingClientToolCalls(filled, ctx.toolOrigins);
}

/** The fill context of one call: now on the gateway's clock, its request id and client model. */
export function fillContext(
  services: { readonly now: () => number },
  request: {
    readonly requestId: string;
    readonly model: string;
    readonly stored?: { readonly responseId: string };
    readonly canonical?: { readonly tools: readonly Tool[] };
    readonly endpoint?: { readonly format: WireFormat };
  },
  /** The protocol of the upstream that answers. */
  upstream?: UpstreamProtocol,
): FillContext {
  const origins = clientToolOrigins(request.canonical?.tools ?? []);

  return {
    now: Math.floor(services.now() / 1000),
    requestId: request.requestId,
    model: request.model,
    ...(request.stored !== undefined
      ? { responseId: request.stored.responseId }
      : request.endpoint?.format === "responses"
        ? { responseId: newResponseId() }
        : {}),
    // A reply between two protocols of one vendor keeps its service tier (chat and Responses).
    keepServiceTier:
      upstream === undefined ||
      (request.endpoint !== undefined &&
        CLIENT_PROTOCOLS[request.endpoint.format].vendor === PROTOCOLS[upstream].vendor),
    ...(origins.size === 0 ? {} : { toolOrigins: origins }),
  };
}
