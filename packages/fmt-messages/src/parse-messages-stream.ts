import {
  COMPACT_FRAME_MAX_CHARS,
  JSON_INDEX_PATTERN,
  JSON_STRING_PATTERN,
  parseSignatureContent,
  parseWireJson,
  pushStream,
  SIGNATURE_PREFIX,
  type SseMessage,
  type StreamEvent,
  streamCutEvent,
  stringifyJsonKeepingNumbers,
  unknownUsage,
} from "@interlingua/core-types";
import { messagesErrorStatus } from "./map-messages-error-type.js";
import { parseMessagesFinishReason } from "./map-messages-finish-reason.js";
import { type MessagesUsageFields, parseMessagesUsage } from "./map-messages-usage.js";
import { parseMessagesCitations } from "./messages-citations.js";
import { withStopDetails } from "./messages-stop-details.js";
import { signatureOf } from "./unsigned-thinking.js";

/** `pending`: an empty thinking block not yet known to be a thought or a carrier (carried-signatures.ts). */
type Kind = "text" | "thinking" | "tool" | "redacted" | "ignored" | "pending";
interface Block {
  kind: Kind;
  /** Whether any argument text was emitted for a tool_use block. */
  args: boolean;
}
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);
const str = (value: unknown): string => (typeof value === "string" ? value : "");

const USAGE_KEYS = [
  "input_tokens",
  "output_tokens",
  "cache_creation_input_tokens",
  "cache_read_input_tokens",
  "cache_creation",
  "service_tier",
  "inference_geo",
  "output_tokens_details",
] as const;

/** The usage fields that are token counts: anything but a non-negative integer is not one. */
const COUNT_KEYS = new Set<string>([
  "input_tokens",
  "output_tokens",
  "cache_creation_input_tokens",
  "cache_read_input_tokens",
]);
const isCount = (value: unknown): boolean =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

/**
 * A text or thinking delta in the compact form Anthropic writes, nearly every frame of a stream:
 * read without parsing the whole frame (only its text, a string literal). Any other form takes
 * the general path, with the same result.
 */
const COMPACT_DELTA = new RegExp(
  `^\\{"type":"content_block_delta","index":(${JSON_INDEX_PATTERN}),"delta":\\{"type":` +
    `(?:"text_delta","text":(${JSON_STRING_PATTERN})|"thinking_delta","thinking":(${JSON_STRING_PATTERN}))\\}\\}$`,
);

/**
 * Anthropic SSE events -> canonical stream events, one message at a time with no buffering.
 * - The block `index` is the canonical part index; blocks this codec does not model
 *   (server_tool_use, web_search_tool_result, ...) and their deltas are skipped.
 * - A tool_use block that streamed no argument text gets "{}" before its part-end.
 * - A text block's `citations_delta` becomes a citation event of its part (web-search sources).
 * - Usage is cumulative: message_start and every message_delta merge their fields (message_delta
 *   may carry input_tokens too) and emit the canonical usage so far. A count that is not a
 *   non-negative integer (negative, fractional, a string) makes the usage unknown (`known:
 *   false`) from then on: the message's real usage cannot be told, and zero would read as free.
 * - A repeated message_start (seen in real streams) does not restart the message: no second
 *   response-start; only its usage fields are merged.
 * - message_delta's stop_reason becomes a finish event (raw kept); an explicit null is "other"
 *   unless a reason was already given.
 * - `error` events become canonical error events with the status of their type; `ping` and
 *   `message_stop` produce nothing; a frame that is not JSON becomes a 502 error event.
 * - A stream that ends before `message_stop` (or a stop reason, or an error) was cut: it ends
 *   with a 502 error event (core-types stream-cut.ts).
 */
export class MessagesStreamDecoder {
  private started = false;
  private finished = false;
  /** message_stop or an error was seen (a stop reason sets `finished`). */
  private ended = false;
  private readonly usage: MessagesUsageFields = {};
  /** A usage count was not a token count: the usage is unknown (see above). */
  private usageMalformed = false;
  private readonly blocks = new Map<number, Block>();
  /** Each tool_use block's index by its call id, for the carriers of their signatures. */
  private readonly calls = new Map<string, number>();

  push(message: SseMessage, sink: (event: StreamEvent) => void): void {
    const emit = this.held === undefined ? sink : this.releasing(sink);
    const data = message.data;
    if (data === "" || data === "[DONE]") return;
    const compact = data.length <= COMPACT_FRAME_MAX_CHARS ? COMPACT_DELTA.exec(data) : null;
    if (compact !== null) {
      const [, index, text, thinking] = compact;
      if (text !== undefined) this.textDelta(Number(index), "text", JSON.parse(text), emit);
      else this.textDelta(Number(index), "thinking", JSON.parse(thinking!), emit);
      return;
    }
    let event: unknown;
    try {
      event = parseWireJson(data);
    } catch {
      this.ended = true;
      emit({
        type: "error",
        error: {
          status: 502,
          type: "bad_gateway",
          message: "malformed stream event from upstream",
        },
      });
      return;
    }
    if (!isObject(event)) return;
    switch (event["type"]) {
      case "message_start":
        this.messageStart(event["message"], emit);
        return;
      case "content_block_start":
        this.blockStart(event, emit);
        return;
      case "content_block_delta":
        this.blockDelta(event, emit);
        return;
      case "content_block_stop":
        this.blockStop(event, emit);
        return;
      case "message_delta":
        this.messageDelta(event, emit);
        return;
      case "message_stop":
        this.ended = true;
        return;
      case "error": {
        this.ended = true;
        const error = isObject(event["error"]) ? event["error"] : {};
        const type = str(error["type"]) || "api_error";
        emit({
          type: "error",
          error: { status: messagesErrorStatus(type), type, message: str(error["message"]) },
        });
        return;
      }
      default:
        // message_stop, ping and future event types carry nothing canonical.
        return;
    }
  }

  /**
   * End of input: every event is decoded as it arrives; a tool call's held end goes out, and a
   * cut stream says so.
   */
  end(emit: (event: StreamEvent) => void): void {
    if (this.held !== undefined) emit({ type: "part-end", index: this.takeHeld() });
    if (!this.ended && !this.finished) emit(streamCutEvent());
  }

  /**
   * A tool call's end waits for the next event: a carrier block of its signature may follow
   * (carried-signatures.ts), whose signature goes out before the end, as a Gemini stream has it.
   */
  private held: number | undefined;

  private takeHeld(): number {
    const index = this.held as number;
    this.held = undefined;
    return index;
  }

  private releasing(sink: (event: StreamEvent) => void): (event: StreamEvent) => void {
    return (event) => {
      if (this.held !== undefined) {
        const index = this.takeHeld();
        if (event.type === "signature-delta" && event.index === index) {
          sink(event);
          sink({ type: "part-end", index });
          return;
        }
        sink({ type: "part-end", index });
      }
      sink(event);
    };
  }

  private messageStart(message: unknown, emit: (event: StreamEvent) => void): void {
    if (!isObject(message)) return;
    if (!this.started) {
      this.started = true;
      emit({
        type: "response-start",
        id: str(message["id"]),
        model: str(message["model"]),
        created: 0,
      });
    }
    this.mergeUsage(message["usage"], emit);
  }

  private mergeUsage(usage: unknown, emit: (event: StreamEvent) => void): void {
    if (!isObject(usage)) return;
    const target = this.usage as Record<string, unknown>;
    // A later write count without its ttl split (message_delta has none) leaves message_start's
    // split stale: it is dropped rather than contradict the count.
    const writes = usage["cache_creation_input_tokens"];
    const split = target["cache_creation"] as
      | { ephemeral_5m_input_tokens?: number; ephemeral_1h_input_tokens?: number }
      | undefined;
    if (
      typeof writes === "number" &&
      usage["cache_creation"] == null &&
      split !== undefined &&
      (split.ephemeral_5m_input_tokens ?? 0) + (split.ephemeral_1h_input_tokens ?? 0) !== writes
    ) {
      delete target["cache_creation"];
    }
    for (const key of USAGE_KEYS) {
      const value = usage[key];
      if (value === undefined || value === null) continue;
      if (COUNT_KEYS.has(key) && !isCount(value)) this.usageMalformed = true;
      else target[key] = value;
    }
    emit({
      type: "usage",
      usage: this.usageMalformed ? unknownUsage() : parseMessagesUsage(this.usage),
    });
  }

  private blockStart(event: Json, emit: (event: StreamEvent) => void): void {
    const index = event["index"];
    const block = event["content_block"];
    if (typeof index !== "number" || !isObject(block)) return;
    switch (block["type"]) {
      case "text": {
        this.blocks.set(index, { kind: "text", args: false });
        emit({ type: "part-start", index, kind: "text" });
        const text = str(block["text"]);
        if (text) emit({ type: "text-delta", index, delta: text });
        return;
      }
      case "thinking": {
        const text = str(block["thinking"]);
        const signature = signatureOf(str(block["signature"])) ?? "";
        if (!text && !signature) {
          // Empty so far: a thought, or the carrier of a call's signature (known at its delta).
          this.blocks.set(index, { kind: "pending", args: false });
          return;
        }
        if (!text && this.carried(signature, emit)) {
          this.blocks.set(index, { kind: "ignored", args: false });
          return;
        }
        this.blocks.set(index, { kind: "thinking", args: false });
        emit({ type: "part-start", index, kind: "thinking" });
        if (text) emit({ type: "thinking-delta", index, delta: text });
        if (signature) emit({ type: "signature-delta", index, signature });
        return;
      }
      case "redacted_thinking":
        this.blocks.set(index, { kind: "redacted", args: false });
        emit({ type: "redacted-thinking", index, data: str(block["data"]) });
        return;
      case "tool_use": {
        const input = block["input"];
        const args = isObject(input) && Object.keys(input).length > 0;
        this.blocks.set(index, { kind: "tool", args });
        this.calls.set(str(block["id"]), index);
        emit({ type: "tool-call-start", index, id: str(block["id"]), name: str(block["name"]) });
        if (args)
          emit({ type: "tool-arguments-delta", index, delta: stringifyJsonKeepingNumbers(input) });
        return;
      }
      default:
        this.blocks.set(index, { kind: "ignored", args: false });
        return;
    }
  }

  private blockDelta(event: Json, emit: (event: StreamEvent) => void): void {
    const index = event["index"];
    const delta = event["delta"];
    if (typeof index !== "number" || !isObject(delta)) return;
    const block = this.blocks.get(index);
    if (block?.kind === "ignored") return;
    // Text deltas settle a pending block in textDelta (the compact path goes there too).
    if (block?.kind === "pending" && delta["type"] === "signature_delta") {
      const signature = signatureOf(str(delta["signature"]));
      if (!signature) return;
      if (this.carried(signature, emit)) {
        block.kind = "ignored";
        return;
      }
      this.settle(index, block, emit);
    }
    switch (delta["type"]) {
      case "text_delta":
        this.textDelta(index, "text", str(delta["text"]), emit);
        return;
      case "thinking_delta":
        this.textDelta(index, "thinking", str(delta["thinking"]), emit);
        return;
      case "signature_delta": {
        const signature = signatureOf(str(delta["signature"]));
        if (signature) emit({ type: "signature-delta", index, signature });
        return;
      }
      case "citations_delta":
        // A web-search source for the whole block; document locations name no URL (as whole replies).
        for (const citation of parseMessagesCitations([delta["citation"]])) {
          emit({ type: "citation", index, citation });
        }
        return;
      case "input_json_delta": {
        const json = str(delta["partial_json"]);
        if (!json) return;
        if (block) block.args = true;
        emit({ type: "tool-arguments-delta", index, delta: json });
        return;
      }
      default:
        return;
    }
  }

  /** A text or thinking delta, from the general path or the compact one. */
  private textDelta(
    index: number,
    kind: "text" | "thinking",
    text: string,
    emit: (event: StreamEvent) => void,
  ): void {
    const block = this.blocks.get(index);
    if (!text || block?.kind === "ignored") return;
    if (block?.kind === "pending") this.settle(index, block, emit);
    emit(
      kind === "text"
        ? { type: "text-delta", index, delta: text }
        : { type: "thinking-delta", index, delta: text },
    );
  }

  /** A pending block turns out a thought: its start, late. */
  private settle(index: number, block: Block, emit: (event: StreamEvent) => void): void {
    block.kind = "thinking";
    emit({ type: "part-start", index, kind: "thinking" });
  }

  /** A carrier's signature goes onto its call (by id); false when `signature` is not one. */
  private carried(signature: string, emit: (event: StreamEvent) => void): boolean {
    if (!signature.startsWith(SIGNATURE_PREFIX)) return false;
    const carried = parseSignatureContent(signature);
    const index = carried === undefined ? undefined : this.calls.get(carried.callId);
    if (carried === undefined || index === undefined) return false;
    emit({ type: "signature-delta", index, signature: carried.signature });
    return true;
  }

  private blockStop(event: Json, emit: (event: StreamEvent) => void): void {
    const index = event["index"];
    if (typeof index !== "number") return;
    const block = this.blocks.get(index);
    if (block?.kind === "ignored") return;
    if (block?.kind === "pending") this.settle(index, block, emit);
    // Canonical tool-call arguments are never "": a call without arguments is "{}".
    if (block?.kind === "tool" && !block.args) {
      block.args = true;
      emit({ type: "tool-arguments-delta", index, delta: "{}" });
    }
    if (block?.kind === "tool") {
      this.held = index;
      return;
    }
    emit({ type: "part-end", index });
  }

  private messageDelta(event: Json, emit: (event: StreamEvent) => void): void {
    const delta = event["delta"];
    if (isObject(delta) && "stop_reason" in delta) {
      const reason = delta["stop_reason"];
      // An explicit null still ends the message (as "other", like a whole message's null), but
      // never overrides a reason already given.
      if (typeof reason === "string" || (reason === null && !this.finished)) {
        this.finished = true;
        const finish: StreamEvent = {
          type: "finish",
          finishReason: withStopDetails(
            parseMessagesFinishReason(typeof reason === "string" ? reason : null),
            delta["stop_details"],
          ),
        };
        const sequence = delta["stop_sequence"];
        if (typeof sequence === "string") finish.stopSequence = sequence;
        emit(finish);
      }
    }
    this.mergeUsage(event["usage"], emit);
  }
}

/** The canonical stream of an Anthropic SSE stream (already framed by @interlingua/sse). */
export function decodeMessagesStream(): TransformStream<SseMessage, StreamEvent> {
  return pushStream(new MessagesStreamDecoder());
}
