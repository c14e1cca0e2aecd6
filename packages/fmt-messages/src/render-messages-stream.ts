import {
  emptyUsage,
  type FinishReason,
  pushStream,
  type SseMessage,
  type StreamEncodeOptions,
  type StreamEvent,
  type StreamEventOf,
  type Usage,
  type Warning,
} from "@interlingua/core-types";
import { carrierBlock } from "./carried-signatures.js";
import { messagesErrorType } from "./map-messages-error-type.js";
import { renderMessagesFinishReason } from "./map-messages-finish-reason.js";
import { renderMessagesDeltaUsage, renderMessagesUsage } from "./map-messages-usage.js";
import type { MessagesUsageOut } from "./messages-api.js";
import { renderStopDetails } from "./messages-stop-details.js";
import { PartSerializer } from "./order-stream-parts.js";
import { DIRECT } from "./render-messages-response.js";
import { appendRequestId } from "./request-id-suffix.js";
import { UNSIGNED_THINKING } from "./unsigned-thinking.js";

type BlockKind = "text" | "thinking" | "tool" | "redacted";
interface Block {
  wire: number;
  kind: BlockKind;
  open: boolean;
  /** A tool block's call id. */
  callId?: string;
  /** A thinking block's signature came (else the unsigned mark is written at its end). */
  signed?: boolean;
  /** A signature the block cannot hold, written in a carrier block after it (carried-signatures.ts). */
  carried?: string;
  /** A text block's text so far: a citation without cited text quotes its span. */
  text?: string;
}

const frame = (type: string, payload: object): SseMessage => ({
  event: type,
  data: JSON.stringify(payload),
});

/**
 * A content_block_delta frame written as a template around one quoted string: these are nearly
 * every frame of a stream, and the template skips building and walking a fresh object; the bytes
 * are those `frame` would write.
 */
const blockDelta = (wire: number, kind: string, field: string, value: string): SseMessage => ({
  event: "content_block_delta",
  data: `{"type":"content_block_delta","index":${wire},"delta":{"type":"${kind}","${field}":${JSON.stringify(value)}}}`,
});

/**
 * Each frame leaves as soon as its event arrives, except stop reason and usage: Anthropic sends
 * both in message_delta after the last block, so they are held until the stream ends.
 * - One block is open at a time: interleaved parallel tool calls are written one after another.
 * - message_start waits for the event after response-start, so usage that arrives at once
 *   (Gemini's first chunk) carries the real input_tokens.
 * - What messages cannot express (choices other than 0, prompt feedback, signatures on text or
 *   tool-call parts) is dropped, one warning per kind; an `error` event ends the stream.
 */
export class MessagesStreamEncoder {
  private started = false;
  private done = false;
  private readonly blocks = new Map<number, Block>();
  private nextWire = 0;
  private usage: Usage | undefined;
  /** The usage message_start said: what message_delta cannot change. */
  private startUsage: MessagesUsageOut | undefined;
  private finishReason: FinishReason | undefined;
  private stopSequence: string | undefined;
  private readonly warned = new Set<string>();
  private readonly serializer = new PartSerializer();
  /** message_start waits for the event after response-start, to carry usage that comes with it. */
  private pendingStart: { id: string; model: string } | undefined;

  constructor(
    private readonly onWarning?: (warning: Warning) => void,
    /** Ends an error event's message, as on the endpoint's error bodies (docs/api-reference.md). */
    private readonly requestId?: string,
  ) {}

  /** One block at a time (order-stream-parts.ts), then the frames. */
  push(event: StreamEvent, emit: (message: SseMessage) => void): void {
    this.serializer.push(event, (e) => this.encode(e, emit));
  }

  private encode(event: StreamEvent, emit: (message: SseMessage) => void): void {
    if (this.done) return;
    if (this.pendingStart !== undefined && event.type !== "response-start") {
      // The upstream's first usage (Gemini sends it with the first chunk) goes in message_start.
      if (event.type === "usage") this.usage = event.usage;
      const { id, model } = this.pendingStart;
      this.pendingStart = undefined;
      this.start(id, model, emit);
      if (event.type === "usage") return;
    }
    if ("alternative" in event && event.alternative !== undefined && event.alternative !== 0) {
      this.warnOnce("choices", "a messages stream carries one reply; other choices are dropped");
      return;
    }
    switch (event.type) {
      case "response-start":
        if (!this.started && this.pendingStart === undefined) {
          this.pendingStart = { id: event.id, model: event.model };
        }
        return;
      case "part-start":
        this.block(event.index, event.kind, emit);
        return;
      case "text-delta": {
        if (event.delta === "") return;
        const block = this.block(event.index, "text", emit);
        block.text = (block.text ?? "") + event.delta;
        emit(blockDelta(block.wire, "text_delta", "text", event.delta));
        return;
      }
      case "citation":
        this.citation(event, emit);
        return;
      case "thinking-delta": {
        if (event.delta === "") return;
        const block = this.block(event.index, "thinking", emit);
        emit(blockDelta(block.wire, "thinking_delta", "thinking", event.delta));
        return;
      }
      case "signature-delta": {
        const known = this.blocks.get(event.index);
        if (known !== undefined && known.kind === "tool") {
          // A tool_use signature (Gemini's): carried after the block.
          known.carried = (known.carried ?? "") + event.signature;
          if (!known.open) this.writeCarrier(known, emit);
          return;
        }
        if (known?.kind === "text") {
          // Not carried: a block after the answer's text would read as the answer (see
          // render-messages-response.ts), and Gemini validates call signatures only.
          this.warnOnce("parts.signature", "only thinking blocks carry a signature");
          return;
        }
        const block = this.block(event.index, "thinking", emit);
        if (block.kind !== "thinking") {
          this.warnOnce("parts.signature", "only thinking blocks carry a signature");
          return;
        }
        block.signed = true;
        emit(
          frame("content_block_delta", {
            type: "content_block_delta",
            index: block.wire,
            delta: { type: "signature_delta", signature: event.signature },
          }),
        );
        return;
      }
      case "redacted-thinking":
        this.ensureStarted(emit);
        this.blocks.set(event.index, { wire: this.nextWire, kind: "redacted", open: true });
        emit(
          frame("content_block_start", {
            type: "content_block_start",
            index: this.nextWire++,
            content_block: { type: "redacted_thinking", data: event.data },
          }),
        );
        return;
      case "tool-call-start":
        if (this.blocks.has(event.index)) return;
        this.ensureStarted(emit);
        this.blocks.set(event.index, {
          wire: this.nextWire,
          kind: "tool",
          open: true,
          callId: event.id,
        });
        emit(
          frame("content_block_start", {
            type: "content_block_start",
            index: this.nextWire++,
            content_block: {
              type: "tool_use",
              id: event.id,
              name: event.name,
              input: {},
              caller: DIRECT,
            },
          }),
        );
        return;
      case "tool-arguments-delta": {
        if (event.delta === "") return;
        const known = this.blocks.get(event.index);
        if (known && !known.open) {
          this.warnOnce(
            "parts.arguments",
            "arguments after the end of their tool call are dropped",
          );
          return;
        }
        const block = known ?? this.openToolWithoutStart(event.index, emit);
        emit(blockDelta(block.wire, "input_json_delta", "partial_json", event.delta));
        return;
      }
      case "part-end": {
        const block = this.blocks.get(event.index);
        if (block?.open) this.close(block, emit);
        return;
      }
      case "usage":
        this.usage = event.usage;
        return;
      case "finish":
        this.finishReason = event.finishReason;
        this.stopSequence = event.stopSequence;
        if (event.providerExtras?.gemini?.safetyRatings !== undefined) {
          this.warnOnce("safetyRatings", "a messages stream has no safety ratings");
        }
        return;
      case "provider-extras":
        if (event.providerExtras.gemini?.promptFeedback !== undefined) {
          this.warnOnce("promptFeedback", "a messages stream has no prompt feedback");
        }
        return;
      case "logprobs":
        this.warnOnce("logprobs", "a messages stream has no log probabilities");
        return;
      case "error":
        this.done = true;
        emit(
          frame("error", {
            type: "error",
            error: {
              type: messagesErrorType(event.error),
              message: appendRequestId(event.error.message, this.requestId),
            },
          }),
        );
        return;
    }
  }

  /** Closes open blocks, then reports the held stop reason and usage and ends the message. */
  end(emit: (message: SseMessage) => void): void {
    this.serializer.end((e) => this.encode(e, emit));
    if (this.pendingStart !== undefined) {
      this.start(this.pendingStart.id, this.pendingStart.model, emit);
      this.pendingStart = undefined;
    }
    if (this.done || !this.started) return;
    this.done = true;
    for (const block of this.blocks.values()) if (block.open) this.close(block, emit);
    const details = this.finishReason ? renderStopDetails(this.finishReason) : null;
    emit(
      frame("message_delta", {
        type: "message_delta",
        delta: {
          stop_reason: this.finishReason ? renderMessagesFinishReason(this.finishReason) : null,
          stop_sequence: this.stopSequence ?? null,
          // Only a refusal's details: an ordinary stop's frame stays as it always was.
          ...(details ? { stop_details: details } : {}),
        },
        usage: this.deltaUsage(),
      }),
    );
    emit(frame("message_stop", { type: "message_stop" }));
  }

  /**
   * message_delta's counts. The tier, geo and cache ttl split ride only on message_start: one
   * that was not known then (a translated stream's usage comes last) is reported dropped.
   */
  private deltaUsage() {
    const usage = this.usage ?? emptyUsage();
    const full = renderMessagesUsage(usage, (feature, message) => this.warnOnce(feature, message));
    const said = this.startUsage;
    const late = {
      serviceTier: full.service_tier !== said?.service_tier,
      inferenceGeo: full.inference_geo !== said?.inference_geo,
      cacheWrite1hTokens:
        full.cache_creation.ephemeral_1h_input_tokens > 0 &&
        full.cache_creation.ephemeral_1h_input_tokens !==
          said?.cache_creation.ephemeral_1h_input_tokens,
    };
    for (const [field, lost] of Object.entries(late)) {
      if (lost) {
        this.warnOnce(
          `usage.${field}`,
          `usage.${field} was known only after message_start; message_delta has no place for it`,
        );
      }
    }
    return renderMessagesDeltaUsage(usage);
  }

  private start(id: string, model: string, emit: (message: SseMessage) => void): void {
    this.started = true;
    this.startUsage = renderMessagesUsage(this.usage ?? emptyUsage());
    emit(
      frame("message_start", {
        type: "message_start",
        message: {
          id,
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          // The message object as a result has it (docs/api-reference.md); a refusal's is in message_delta.
          stop_details: null,
          usage: this.startUsage,
        },
      }),
    );
  }

  private ensureStarted(emit: (message: SseMessage) => void): void {
    if (this.started) return;
    const pending = this.pendingStart;
    this.pendingStart = undefined;
    this.start(pending?.id ?? "", pending?.model ?? "", emit);
  }

  /** The open block of a text or thinking part, starting it (again) when needed. */
  private block(index: number, kind: "text" | "thinking", emit: (m: SseMessage) => void): Block {
    const known = this.blocks.get(index);
    if (known?.open) return known;
    this.ensureStarted(emit);
    const block: Block = { wire: this.nextWire++, kind, open: true };
    this.blocks.set(index, block);
    emit(
      frame("content_block_start", {
        type: "content_block_start",
        index: block.wire,
        content_block:
          block.kind === "text"
            ? { type: "text", text: "" }
            : { type: "thinking", thinking: "", signature: "" },
      }),
    );
    return block;
  }

  /**
   * A citation on the open text block, as a citations_delta. Anthropic cites whole blocks and the
   * text already went out, so a span is widened to the block (reported); without cited text the
   * span's own text is quoted, as whole replies do (render-messages-response.ts).
   */
  private citation(event: StreamEventOf<"citation">, emit: (m: SseMessage) => void): void {
    const block = this.blocks.get(event.index);
    if (block === undefined || !block.open || block.kind !== "text") {
      this.warnOnce("parts.citations", "a citation outside an open text block is dropped");
      return;
    }
    const c = event.citation;
    const text = block.text ?? "";
    if (c.startIndex !== undefined || c.endIndex !== undefined) {
      this.warnOnce(
        "parts.citations.span",
        "Anthropic cites whole text blocks; a streamed citation's span became its block",
        "mapped",
      );
    }
    if (c.citedText === undefined) {
      this.warnOnce(
        "parts.citations.citedText",
        "Anthropic citations need cited_text; the cited span of the answer was sent",
        "mapped",
      );
    }
    const citation = {
      type: "web_search_result_location",
      url: c.url,
      title: c.title ?? null,
      cited_text: c.citedText ?? text.slice(c.startIndex ?? 0, c.endIndex ?? text.length),
      encrypted_index: "",
    };
    emit(
      frame("content_block_delta", {
        type: "content_block_delta",
        index: block.wire,
        delta: { type: "citations_delta", citation },
      }),
    );
  }

  private openToolWithoutStart(index: number, emit: (m: SseMessage) => void): Block {
    this.ensureStarted(emit);
    const block: Block = { wire: this.nextWire++, kind: "tool", open: true };
    this.blocks.set(index, block);
    emit(
      frame("content_block_start", {
        type: "content_block_start",
        index: block.wire,
        content_block: { type: "tool_use", id: "", name: "", input: {}, caller: DIRECT },
      }),
    );
    return block;
  }

  private close(block: Block, emit: (message: SseMessage) => void): void {
    block.open = false;
    if (block.kind === "thinking" && block.signed !== true) {
      emit(blockDelta(block.wire, "signature_delta", "signature", UNSIGNED_THINKING));
    }
    emit(frame("content_block_stop", { type: "content_block_stop", index: block.wire }));
    this.writeCarrier(block, emit);
  }

  /** The carrier thinking block of a closed block's signature, once. */
  private writeCarrier(block: Block, emit: (message: SseMessage) => void): void {
    if (block.carried === undefined) return;
    const carrier = carrierBlock(block.callId ?? "", block.carried);
    delete block.carried;
    const wire = this.nextWire++;
    emit(
      frame("content_block_start", {
        type: "content_block_start",
        index: wire,
        content_block: { type: "thinking", thinking: "", signature: "" },
      }),
    );
    emit(blockDelta(wire, "signature_delta", "signature", carrier.signature));
    emit(frame("content_block_stop", { type: "content_block_stop", index: wire }));
  }

  private warnOnce(feature: string, message: string, type: Warning["type"] = "dropped"): void {
    if (this.warned.has(feature)) return;
    this.warned.add(feature);
    this.onWarning?.({ type, feature, message });
  }
}

/** The messages-format SSE frames of a canonical stream; pair with @interlingua/sse encodeSse. */
export function encodeMessagesStream(
  options: StreamEncodeOptions = {},
): TransformStream<StreamEvent, SseMessage> {
  return pushStream(new MessagesStreamEncoder(options.onWarning, options.requestId));
}
