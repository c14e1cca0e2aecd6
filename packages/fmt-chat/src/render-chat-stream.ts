import type {
  Citation,
  SseMessage,
  StreamEncodeOptions,
  StreamEvent,
  StreamEventOf,
  Usage,
  Warning,
} from "@interlingua/core-types";
import { pushStream } from "@interlingua/core-types";
import { standardErrorTypeFor } from "@interlingua/errors";
import type { ChatFinishReason } from "./chat-api.js";
import { legacyFinishReason } from "./chat-legacy-functions.js";
import { renderChatTokens, warnChatLogprobsLoss } from "./chat-logprobs.js";
import { type ChatReasoningDetailOut, reasoningDetailOf } from "./chat-reasoning-details.js";
import { chatServiceTier } from "./chat-service-tier.js";
import {
  droppedBlockReason,
  isFinishReasonMapped,
  renderChatFinishReason,
} from "./map-chat-finish-reason.js";
import { renderChatUsage } from "./map-chat-usage.js";
import { type RenderedUrlCitation, warnDroppedUsage } from "./render-chat-response.js";

type Send = (message: SseMessage) => void;

/** The delta of one `chat.completion.chunk` choice, as the encoder writes it. */
export interface ChatDeltaOut {
  role?: "assistant";
  content?: string;
  reasoning_content?: string;
  tool_calls?: ChatToolCallDeltaOut[];
  reasoning_details?: ChatReasoningDetailOut[];
  annotations?: RenderedUrlCitation[];
  /** A request with `functions` gets its one call this way (chat-legacy-functions.ts). */
  function_call?: { name?: string; arguments: string };
}
export type ChatToolCallDeltaOut =
  | {
      index: number;
      id?: string;
      type?: "function";
      function: { name?: string; arguments: string };
    }
  /** A custom (free-form input) tool's call: its raw input in `custom.input`. */
  | { index: number; id?: string; type?: "custom"; custom: { name?: string; input: string } };

interface ChoiceState {
  roleSent: boolean;
  /** Canonical part index -> the tool call's position among the choice's calls (0, 1, 2...). */
  tools: Map<number, number>;
  /** What each part is, for signatures: a tool call's id, a thinking part's text so far. */
  parts: Map<number, PartState>;
  /** Reasoning details written so far (their `index`). */
  details: number;
  /** UTF-16 length of the content written so far: annotations index the whole content. */
  contentLength: number;
}

interface PartState {
  kind: "text" | "thinking" | "tool" | "custom";
  id?: string;
  text: string;
  /** A text part's offset in the content. */
  start?: number;
  /** Citations over the whole part, written when its end (and so its length) is known. */
  wholeCitations?: Citation[];
}

/**
 * Canonical stream events -> chat-completion chunks, each event written the moment it arrives.
 * Events chat has no frame for (part-start, part-end) write nothing; signatures and redacted
 * thinking go out as `reasoning_details` entries in their own chunk (a signed thinking part's
 * entry repeats its whole text, so merging by `index` or not gives the same message); prompt
 * feedback is dropped with a warning (once per stream); logprobs go out in a chunk of their own
 * with an empty delta (their mean and token ids are dropped with a warning). Usage is held until
 * the end and written as the `choices: []` chunk when the client asked for it
 * (`providerExtras.openai.includeUsage`), then `data: [DONE]`.
 */
export class ChatStreamEncoder {
  private id = "";
  private model = "";
  private created = 0;
  private usage: Usage | undefined;
  /** `{"id":…,"model":…,"choices":[{"index":` of every chunk, built once per response. */
  private head: string | undefined;
  private readonly choices = new Map<number, ChoiceState>();
  private readonly warned = new Set<string>();

  /** The request used `functions`: calls go out as `delta.function_call`. */
  private readonly legacy: boolean;

  constructor(private readonly options: StreamEncodeOptions = {}) {
    this.legacy = options.providerExtras?.openai?.legacyFunctions === true;
  }

  push(event: StreamEvent, send: Send): void {
    switch (event.type) {
      case "response-start":
        this.id = event.id;
        this.model = event.model;
        this.created = event.created;
        this.head = undefined;
        this.state(0).roleSent = true;
        send(this.chunk(0, { role: "assistant", content: "" }, null));
        return;
      case "text-delta":
        if (event.delta !== "") {
          const state = this.state(event.alternative ?? 0);
          if (!state.parts.has(event.index)) this.textPart(state, event.index);
          state.contentLength += event.delta.length;
          send(this.textDelta(event.alternative ?? 0, "content", event.delta));
        }
        return;
      case "citation":
        this.citation(event, send);
        return;
      case "thinking-delta":
        if (event.delta !== "") {
          const part = this.state(event.alternative ?? 0).parts.get(event.index);
          if (part?.kind === "thinking") part.text += event.delta;
          send(this.textDelta(event.alternative ?? 0, "reasoning_content", event.delta));
        }
        return;
      case "part-start": {
        const state = this.state(event.alternative ?? 0);
        if (event.kind === "text") this.textPart(state, event.index);
        else state.parts.set(event.index, { kind: event.kind, text: "" });
        return;
      }
      case "tool-call-start": {
        const choice = event.alternative ?? 0;
        const state = this.state(choice);
        const index = state.tools.size;
        state.tools.set(event.index, index);
        const kind = event.custom ? "custom" : "tool";
        state.parts.set(event.index, { kind, id: event.id, text: "" });
        if (this.legacy) {
          // One call a turn, with no id (chat-legacy-functions.ts); a further one is dropped.
          if (index === 0)
            send(this.delta(choice, { function_call: { name: event.name, arguments: "" } }));
          else this.warn("tool_calls", "the deprecated functions interface makes one call a turn");
          return;
        }
        send(
          this.delta(choice, {
            tool_calls: [
              kind === "custom"
                ? { index, id: event.id, type: "custom", custom: { name: event.name, input: "" } }
                : {
                    index,
                    id: event.id,
                    type: "function",
                    function: { name: event.name, arguments: "" },
                  },
            ],
          }),
        );
        return;
      }
      case "tool-arguments-delta": {
        const choice = event.alternative ?? 0;
        const state = this.state(choice);
        let index = state.tools.get(event.index);
        if (index === undefined) {
          index = state.tools.size;
          state.tools.set(event.index, index);
        }
        if (this.legacy) {
          if (index === 0) send(this.delta(choice, { function_call: { arguments: event.delta } }));
          return;
        }
        const call: ChatToolCallDeltaOut =
          state.parts.get(event.index)?.kind === "custom"
            ? { index, custom: { input: event.delta } }
            : { index, function: { arguments: event.delta } };
        send(this.delta(choice, { tool_calls: [call] }));
        return;
      }
      case "finish": {
        const choice = event.alternative ?? 0;
        for (const part of this.state(choice).parts.values()) {
          if (part.wholeCitations !== undefined) this.writeWholeCitations(choice, part, send);
        }
        if (isFinishReasonMapped(event.finishReason)) {
          this.warn(
            "finishReason",
            `chat has no "${event.finishReason.unified}" finish reason; "stop" was sent`,
            "mapped",
          );
        }
        const blockReason = droppedBlockReason(event.finishReason);
        if (blockReason !== undefined) this.warn("finishReason.raw", blockReason);
        if (event.stopSequence !== undefined) {
          this.warn("stopSequence", "chat does not name the stop sequence");
        }
        if (event.providerExtras?.gemini?.safetyRatings !== undefined) {
          this.warn("safetyRatings", "chat has no safety ratings");
        }
        const reason = renderChatFinishReason(event.finishReason);
        send(
          this.chunk(
            choice,
            this.withRole(choice, {}),
            this.legacy ? legacyFinishReason(reason) : reason,
          ),
        );
        return;
      }
      case "usage":
        this.usage = event.usage;
        return;
      case "error":
        // The spec's chat error body: `code` is the HTTP status, and `type` the standard one for
        // it, as a non-stream error gets (not another family's word, e.g. overloaded_error).
        send({
          data: JSON.stringify({
            error: {
              code: event.error.status,
              message: event.error.message,
              type: standardErrorTypeFor(event.error.status),
            },
          }),
        });
        return;
      case "signature-delta": {
        const choice = event.alternative ?? 0;
        const state = this.state(choice);
        const part = state.parts.get(event.index);
        const detail = reasoningDetailOf(
          part?.kind === "tool"
            ? {
                type: "tool-call",
                id: part.id ?? "",
                name: "",
                arguments: "",
                signature: event.signature,
              }
            : part?.kind === "text"
              ? { type: "text", text: "", signature: event.signature }
              : { type: "thinking", text: part?.text ?? "", signature: event.signature },
          state.details,
        );
        if (detail === undefined) return;
        state.details++;
        send(this.delta(choice, { reasoning_details: [detail] }));
        return;
      }
      case "redacted-thinking": {
        const choice = event.alternative ?? 0;
        const state = this.state(choice);
        const detail = reasoningDetailOf(
          { type: "redacted-thinking", data: event.data },
          state.details++,
        );
        if (detail !== undefined) send(this.delta(choice, { reasoning_details: [detail] }));
        return;
      }
      case "provider-extras":
        if (event.providerExtras.gemini?.promptFeedback !== undefined) {
          this.warn("promptFeedback", "chat has no prompt feedback");
        }
        return;
      case "part-end": {
        const part = this.state(event.alternative ?? 0).parts.get(event.index);
        if (part?.wholeCitations !== undefined)
          this.writeWholeCitations(event.alternative ?? 0, part, send);
        return;
      }
      case "logprobs": {
        const choice = event.alternative ?? 0;
        warnChatLogprobsLoss(event, "logprobs", (w) => this.warn(w.feature, w.message));
        if (event.content.length === 0) return;
        const logprobs = { content: renderChatTokens(event.content), refusal: null };
        send({
          data: `${this.chunkHead()}${choice},"delta":${JSON.stringify(this.withRole(choice, {}))},"logprobs":${JSON.stringify(logprobs)},"finish_reason":null}]}`,
        });
        return;
      }
    }
  }

  private textPart(state: ChoiceState, index: number): PartState {
    const part: PartState = { kind: "text", text: "", start: state.contentLength };
    state.parts.set(index, part);
    return part;
  }

  /**
   * A citation as a url_citation annotation in its own chunk, indices shifted into the content.
   * One over the whole part waits for the part's end, when its length is known; chat has no
   * cited-text field (reported).
   */
  private citation(event: StreamEventOf<"citation">, send: Send): void {
    const choice = event.alternative ?? 0;
    const state = this.state(choice);
    const part = state.parts.get(event.index) ?? this.textPart(state, event.index);
    const c = event.citation;
    if (c.citedText !== undefined) {
      this.warn("parts.citations.citedText", "chat url_citation has no cited text");
    }
    if (c.endIndex === undefined) {
      part.wholeCitations ??= [];
      part.wholeCitations.push(c);
      return;
    }
    const start = part.start ?? 0;
    send(
      this.delta(choice, {
        annotations: [urlCitation(c, start + (c.startIndex ?? 0), start + c.endIndex)],
      }),
    );
  }

  private writeWholeCitations(choice: number, part: PartState, send: Send): void {
    const start = part.start ?? 0;
    const end = this.state(choice).contentLength;
    const annotations = (part.wholeCitations ?? []).map((c) =>
      urlCitation(c, start + (c.startIndex ?? 0), end),
    );
    delete part.wholeCitations;
    send(this.delta(choice, { annotations }));
  }

  end(send: Send): void {
    if (this.options.providerExtras?.openai?.includeUsage === true && this.usage !== undefined) {
      const usage = this.usage;
      warnDroppedUsage({ usage }, (w) => this.warn(w.feature, w.message));
      const chunk: Record<string, unknown> = {
        id: this.id,
        object: "chat.completion.chunk",
        created: this.created,
        model: this.model,
        choices: [],
        usage: renderChatUsage(usage),
      };
      const tier = chatServiceTier(usage.serviceTier, (w) => this.warn(w.feature, w.message));
      if (tier !== undefined) chunk.service_tier = tier;
      send({ data: JSON.stringify(chunk) });
    }
    send({ data: "[DONE]" });
  }

  private state(choice: number): ChoiceState {
    let state = this.choices.get(choice);
    if (state === undefined) {
      state = { roleSent: false, tools: new Map(), parts: new Map(), details: 0, contentLength: 0 };
      this.choices.set(choice, state);
    }
    return state;
  }

  /** The first chunk of each choice carries `role`, as OpenAI's do. */
  private withRole(choice: number, delta: ChatDeltaOut): ChatDeltaOut {
    const state = this.state(choice);
    if (state.roleSent) return delta;
    state.roleSent = true;
    return { role: "assistant", ...delta };
  }

  private delta(choice: number, delta: ChatDeltaOut): SseMessage {
    return this.chunk(choice, this.withRole(choice, delta), null);
  }

  /**
   * Text and reasoning deltas are nearly every chunk of a stream, so they are written from the
   * fixed head and one quoted string instead of through `JSON.stringify` of a fresh object;
   * the bytes are the same.
   */
  private textDelta(choice: number, field: "content" | "reasoning_content", text: string) {
    if (!this.state(choice).roleSent) return this.delta(choice, { [field]: text });
    return {
      data: `${this.chunkHead()}${choice},"delta":{"${field}":${JSON.stringify(text)}},"finish_reason":null}]}`,
    };
  }

  private chunkHead(): string {
    this.head ??= `${JSON.stringify({
      id: this.id,
      object: "chat.completion.chunk",
      created: this.created,
      model: this.model,
    }).slice(0, -1)},"choices":[{"index":`;
    return this.head;
  }

  private chunk(choice: number, delta: ChatDeltaOut, finish: ChatFinishReason | null): SseMessage {
    return {
      data: `${this.chunkHead()}${choice},"delta":${JSON.stringify(delta)},"finish_reason":${JSON.stringify(finish)}}]}`,
    };
  }

  private warn(feature: string, message: string, type: Warning["type"] = "dropped"): void {
    if (this.warned.has(feature)) return;
    this.warned.add(feature);
    this.options.onWarning?.({ type, feature, message });
  }
}

const urlCitation = (c: Citation, start: number, end: number): RenderedUrlCitation => ({
  type: "url_citation",
  url_citation: { url: c.url, title: c.title ?? "", start_index: start, end_index: end },
});

/** The codec's `stream.encode()`: canonical events in, chat SSE messages out. */
export function encodeChatStream(
  options?: StreamEncodeOptions,
): TransformStream<StreamEvent, SseMessage> {
  return pushStream(new ChatStreamEncoder(options));
}

/** Encodes a whole event list at once (tests, benchmarks). */
export function encodeChatEvents(
  events: Iterable<StreamEvent>,
  options?: StreamEncodeOptions,
): SseMessage[] {
  const encoder = new ChatStreamEncoder(options);
  const messages: SseMessage[] = [];
  const send = (message: SseMessage) => messages.push(message);
  for (const event of events) encoder.push(event, send);
  encoder.end(send);
  return messages;
}
