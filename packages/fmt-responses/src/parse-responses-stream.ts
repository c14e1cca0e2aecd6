import {
  pushStream,
  type SseMessage,
  type StreamEvent,
  streamCutEvent,
} from "@interlingua/core-types";
import { badGateway } from "@interlingua/errors";
import { expandParallelWrapper, parallelWrapperNames } from "./expand-parallel-wrapper.js";
import { errorFromResponsesWire } from "./map-responses-error.js";
import { parseResponsesFinishReason } from "./map-responses-finish-reason.js";
import { parseResponsesUsage } from "./map-responses-usage.js";
import { parseSignatureContent, REDACTED_PREFIX } from "./opaque-reasoning.js";
import { normalizeArguments } from "./parse-responses-request.js";
import { parseUrlCitations } from "./responses-citations.js";
import { parseResponsesLogprobs } from "./responses-logprobs.js";
import { responsesUsageSchema } from "./responses-stream-api.js";

type Emit = (event: StreamEvent) => void;
type Json = Record<string, unknown>;

/** One canonical part; `said` records that its content was emitted, so a `.done` repeats nothing. */
interface PartState {
  index: number;
  said: boolean;
  closed: boolean;
  /** A text part had annotation events: the annotations its done events repeat are not new. */
  cited?: boolean;
  /** A text part's logprobs were emitted (from its deltas, or once from the finished part). */
  logprobs?: boolean;
}
interface MessageItem {
  kind: "message";
  parts: Map<number, PartState>;
}
interface CallItem extends PartState {
  kind: "function_call";
  /** Arguments that came whole on `output_item.added`, used only if no other event brings them. */
  pending: string;
  /** A custom_tool_call: its input is raw text (`input`, not `arguments`), never defaulted to "{}". */
  custom: boolean;
}
interface ReasoningItem extends PartState {
  kind: "reasoning";
  /** Summary (`s<i>`) and reasoning-text (`c<i>`) sections already emitted or finished. */
  touched: Set<string>;
  lastKey: string | undefined;
  anyText: boolean;
}
/** A parallel-call wrapper: held until its arguments are whole, then emitted as its calls. */
interface WrapperItem {
  kind: "wrapper";
  callId: string;
  name: string;
  fragments: string[];
  pending: string;
  resolved: boolean;
}
interface OtherItem {
  kind: "other";
}
type Item = MessageItem | CallItem | WrapperItem | ReasoningItem | OtherItem;

const isRecord = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const str = (value: unknown): string => (typeof value === "string" ? value : "");
/** Message content the canonical model carries: output text, and refusals read as text. */
const isTextPart = (value: unknown): value is Json =>
  isRecord(value) && (value["type"] === "output_text" || value["type"] === "refusal");
const int = (value: unknown): number =>
  typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : 0;

/**
 * Reads OpenAI Responses stream events (as the fixtures record them) into canonical events, one
 * input event at a time. Output items map to canonical parts in order of appearance: a message's
 * output_text/refusal content parts are text parts, a reasoning item is one thinking part (its
 * summaries joined by a blank line, `encrypted_content` of the finished item as the signature), a
 * function_call is a tool call. Deltas are keyed by output item (output_index, or item_id), so
 * interleaved parallel calls stay apart, and content that arrives only in a `.done` event or only
 * in `output_item.done` is emitted exactly once. A parallel-call wrapper (see
 * expand-parallel-wrapper.ts) is the one thing held back: its calls are known only once its
 * arguments are whole.
 */
export class ResponsesStreamDecoder {
  private items = new Map<number, Item>();
  private indexOfItemId = new Map<string, number>();
  private readonly open = new Map<number, PartState>();
  private readonly wrappers = new Set<WrapperItem>();
  private nextIndex = 0;
  /** Part indices of calls by call id, and of the last text part: for marked signatures. */
  private readonly callParts = new Map<string, number>();
  private lastText: number | undefined;
  private started = false;
  private madeFunctionCalls = false;
  private failed = false;
  private ended = false;

  push(message: SseMessage, emit: Emit): void {
    const data = message.data;
    if (data === "[DONE]" || data === "") return;
    let event: unknown;
    try {
      event = JSON.parse(data);
    } catch {
      this.malformed(emit);
      return;
    }
    if (!isRecord(event)) {
      this.malformed(emit);
      return;
    }
    const type = typeof event["type"] === "string" ? event["type"] : (message.event ?? "");
    switch (type) {
      case "response.output_text.delta":
      case "response.refusal.delta": {
        const part = this.textPart(event, emit);
        this.textDelta(part, str(event["delta"]), emit);
        this.logprobs(part, event["logprobs"], true, emit);
        return;
      }
      case "response.function_call_arguments.delta":
      case "response.custom_tool_call_input.delta": {
        const call = this.callItem(event, emit);
        const delta = str(event["delta"]);
        if (call?.kind === "wrapper") call.fragments.push(delta);
        else if (call && delta !== "") {
          emit({ type: "tool-arguments-delta", index: call.index, delta });
          call.said = true;
        }
        return;
      }
      case "response.reasoning_summary_text.delta":
        this.thinking(
          this.reasoningItem(event, emit),
          `s${int(event["summary_index"])}`,
          str(event["delta"]),
          emit,
        );
        return;
      case "response.reasoning_text.delta":
        this.thinking(
          this.reasoningItem(event, emit),
          `c${int(event["content_index"])}`,
          str(event["delta"]),
          emit,
        );
        return;
      case "response.created":
      case "response.in_progress":
        this.start(event["response"], emit);
        return;
      case "response.output_item.added":
        this.openItem(int(event["output_index"]), event["item"], emit);
        return;
      case "response.content_part.added":
        if (isTextPart(event["part"])) this.textPart(event, emit);
        return;
      case "response.output_text.annotation.added": {
        const part = this.textPart(event, emit);
        if (part === undefined) return;
        part.cited = true;
        this.cite(part, [event["annotation"]], emit);
        return;
      }
      case "response.output_text.done":
        this.textDone(this.textPart(event, emit), str(event["text"]), false, emit);
        return;
      case "response.refusal.done":
        this.textDone(this.textPart(event, emit), str(event["refusal"]), false, emit);
        return;
      case "response.content_part.done": {
        const part = event["part"];
        if (!isTextPart(part)) return;
        const state = this.textPart(event, emit);
        this.logprobs(state, part["logprobs"], false, emit);
        this.textDone(state, str(part["text"]) || str(part["refusal"]), false, emit);
        this.citeDone(state, part["annotations"], emit);
        if (state) this.close(state, emit);
        return;
      }
      case "response.function_call_arguments.done": {
        const call = this.callItem(event, emit);
        if (call?.kind === "wrapper") this.resolveWrapper(call, str(event["arguments"]), emit);
        else if (call && !call.said) this.sayArguments(call, str(event["arguments"]), emit);
        return;
      }
      case "response.custom_tool_call_input.done": {
        const call = this.callItem(event, emit, "custom_tool_call");
        if (call?.kind === "function_call" && !call.said) {
          this.sayArguments(call, str(event["input"]), emit);
        }
        return;
      }
      case "response.reasoning_summary_text.done":
        this.thinkingDone(
          this.reasoningItem(event, emit),
          `s${int(event["summary_index"])}`,
          str(event["text"]),
          emit,
        );
        return;
      case "response.reasoning_summary_part.done": {
        const part = isRecord(event["part"]) ? event["part"] : {};
        this.thinkingDone(
          this.reasoningItem(event, emit),
          `s${int(event["summary_index"])}`,
          str(part["text"]),
          emit,
        );
        return;
      }
      case "response.reasoning_text.done":
        this.thinkingDone(
          this.reasoningItem(event, emit),
          `c${int(event["content_index"])}`,
          str(event["text"]),
          emit,
        );
        return;
      case "response.output_item.done":
        this.itemDone(int(event["output_index"]), event["item"], emit);
        return;
      case "response.completed":
      case "response.incomplete":
      case "response.failed":
        this.terminal(type, event, emit);
        return;
      case "error":
        // Open parts stay open: they close at the end of the stream, after the error.
        if (!this.failed) emit({ type: "error", error: errorFromResponsesWire(event) });
        this.failed = true;
        return;
    }
  }

  /**
   * End of input: parts a cut-off stream left open are closed, and a stream that ended with no
   * terminal event (nor an error) fails with a 502 error event (core-types stream-cut.ts).
   */
  end(emit: Emit): void {
    if (this.ended) return;
    this.closeAll(emit);
    if (!this.failed) emit(streamCutEvent());
  }

  private malformed(emit: Emit): void {
    this.failed = true;
    const error = badGateway("Upstream sent a malformed Responses stream event");
    emit({
      type: "error",
      error: { status: error.status, type: error.type, message: error.message },
    });
  }

  private start(response: unknown, emit: Emit): void {
    if (this.started) {
      // A second response in one stream (an agent loop recorded end to end): its output indices
      // restart at 0, its parts continue the canonical numbering.
      if (this.ended) {
        this.items = new Map();
        this.indexOfItemId = new Map();
        this.madeFunctionCalls = false;
        this.ended = false;
      }
      return;
    }
    this.started = true;
    const r = isRecord(response) ? response : {};
    emit({
      type: "response-start",
      id: str(r["id"]),
      model: str(r["model"]),
      created: int(r["created_at"]),
    });
  }

  private newPart(): PartState {
    const part: PartState = { index: this.nextIndex++, said: false, closed: false };
    this.open.set(part.index, part);
    return part;
  }

  private openItem(outputIndex: number, rawItem: unknown, emit: Emit): Item {
    const existing = this.items.get(outputIndex);
    if (existing) return existing;
    const item = isRecord(rawItem) ? rawItem : {};
    const id = item["id"];
    if (typeof id === "string") this.indexOfItemId.set(id, outputIndex);
    let state: Item;
    switch (item["type"]) {
      case "message":
        state = { kind: "message", parts: new Map() };
        break;
      case "function_call": {
        this.madeFunctionCalls = true;
        if (parallelWrapperNames.has(str(item["name"]))) {
          state = {
            kind: "wrapper",
            callId: str(item["call_id"]) || str(id),
            name: str(item["name"]),
            fragments: [],
            pending: str(item["arguments"]),
            resolved: false,
          };
          this.wrappers.add(state);
          break;
        }
        state = this.openCall(item, false, emit);
        break;
      }
      case "custom_tool_call":
        this.madeFunctionCalls = true;
        state = this.openCall(item, true, emit);
        break;
      case "reasoning": {
        if (this.opaque(item["encrypted_content"], emit)) {
          state = { kind: "other" };
          break;
        }
        const part = this.newPart();
        state = {
          ...part,
          kind: "reasoning",
          touched: new Set(),
          lastKey: undefined,
          anyText: false,
        };
        this.open.set(part.index, state);
        emit({ type: "part-start", index: part.index, kind: "thinking" });
        break;
      }
      default:
        state = { kind: "other" };
    }
    this.items.set(outputIndex, state);
    return state;
  }

  /** A function_call (namespaced or not) or custom_tool_call item as a tool-call part. */
  private openCall(item: Json, custom: boolean, emit: Emit): CallItem {
    const part = this.newPart();
    const pending = str(custom ? item["input"] : item["arguments"]);
    const state: CallItem = { ...part, kind: "function_call", pending, custom };
    this.open.set(part.index, state);
    const callId = str(item["call_id"]) || str(item["id"]);
    this.callParts.set(callId, part.index);
    const namespace = str(item["namespace"]);
    emit({
      type: "tool-call-start",
      index: part.index,
      id: callId,
      name: str(item["name"]),
      ...(namespace === "" ? {} : { namespace }),
      ...(custom ? { custom: true as const } : {}),
    });
    return state;
  }

  /** The item an item-level event belongs to, opened as `type` if the stream skipped its start. */
  private itemOf(event: Json, type: string, emit: Emit): Item {
    const outputIndex =
      typeof event["output_index"] === "number"
        ? int(event["output_index"])
        : (this.indexOfItemId.get(str(event["item_id"])) ?? 0);
    return (
      this.items.get(outputIndex) ??
      this.openItem(outputIndex, { type, id: event["item_id"], call_id: event["item_id"] }, emit)
    );
  }

  private textPart(event: Json, emit: Emit): PartState | undefined {
    const item = this.itemOf(event, "message", emit);
    if (item.kind !== "message") return undefined;
    return this.contentPart(item, int(event["content_index"]), emit);
  }

  private contentPart(item: MessageItem, contentIndex: number, emit: Emit): PartState {
    let part = item.parts.get(contentIndex);
    if (!part) {
      part = this.newPart();
      item.parts.set(contentIndex, part);
      this.lastText = part.index;
      emit({ type: "part-start", index: part.index, kind: "text" });
    }
    return part;
  }

  private textDelta(part: PartState | undefined, delta: string, emit: Emit): void {
    if (!part || delta === "") return;
    emit({ type: "text-delta", index: part.index, delta });
    part.said = true;
  }

  /**
   * Token logprobs of a text part: each delta's as they come; otherwise once, from the finished
   * part (content_part.done or output_item.done, which also carry the tokens' bytes).
   */
  private logprobs(part: PartState | undefined, value: unknown, delta: boolean, emit: Emit): void {
    if (!part || (!delta && part.logprobs)) return;
    const content = parseResponsesLogprobs(value);
    if (content.length === 0) return;
    part.logprobs = true;
    emit({ type: "logprobs", content });
  }

  private textDone(part: PartState | undefined, text: string, close: boolean, emit: Emit): void {
    if (!part) return;
    if (!part.said && text !== "") emit({ type: "text-delta", index: part.index, delta: text });
    part.said = true;
    if (close) this.close(part, emit);
  }

  private cite(part: PartState, annotations: unknown[], emit: Emit): void {
    for (const citation of parseUrlCitations(annotations)) {
      emit({ type: "citation", index: part.index, citation });
    }
  }

  /** Annotations a done event lists, when no annotation event brought them (a terse upstream). */
  private citeDone(part: PartState | undefined, annotations: unknown, emit: Emit): void {
    if (part === undefined || part.cited || part.closed || !Array.isArray(annotations)) return;
    part.cited = true;
    this.cite(part, annotations, emit);
  }

  private callItem(
    event: Json,
    emit: Emit,
    type = String(event["type"]).startsWith("response.custom_tool_call")
      ? "custom_tool_call"
      : "function_call",
  ): CallItem | WrapperItem | undefined {
    const item = this.itemOf(event, type, emit);
    return item.kind === "function_call" || item.kind === "wrapper" ? item : undefined;
  }

  private resolveWrapper(wrapper: WrapperItem, args: string, emit: Emit): void {
    if (wrapper.resolved) return;
    wrapper.resolved = true;
    this.wrappers.delete(wrapper);
    const whole = args || wrapper.fragments.join("") || wrapper.pending;
    const calls = expandParallelWrapper(wrapper.callId, wrapper.name, whole) ?? [
      {
        type: "tool-call",
        id: wrapper.callId,
        name: wrapper.name,
        arguments: normalizeArguments(whole),
      },
    ];
    for (const call of calls) {
      const part = this.newPart();
      emit({ type: "tool-call-start", index: part.index, id: call.id, name: call.name });
      emit({ type: "tool-arguments-delta", index: part.index, delta: call.arguments });
      this.close(part, emit);
    }
  }

  private sayArguments(call: CallItem, args: string, emit: Emit): void {
    if (call.custom) {
      if (args !== "") emit({ type: "tool-arguments-delta", index: call.index, delta: args });
    } else {
      emit({ type: "tool-arguments-delta", index: call.index, delta: normalizeArguments(args) });
    }
    call.said = true;
  }

  private reasoningItem(event: Json, emit: Emit): ReasoningItem | undefined {
    const item = this.itemOf(event, "reasoning", emit);
    return item.kind === "reasoning" ? item : undefined;
  }

  /** Sections of one reasoning item read as one text, a blank line between non-empty sections. */
  private thinking(item: ReasoningItem | undefined, key: string, delta: string, emit: Emit): void {
    if (!item) return;
    item.touched.add(key);
    if (delta === "") return;
    if (item.anyText && item.lastKey !== key) {
      emit({ type: "thinking-delta", index: item.index, delta: "\n\n" });
    }
    emit({ type: "thinking-delta", index: item.index, delta });
    item.anyText = true;
    item.lastKey = key;
  }

  private thinkingDone(
    item: ReasoningItem | undefined,
    key: string,
    text: string,
    emit: Emit,
  ): void {
    if (!item || item.touched.has(key)) return;
    this.thinking(item, key, text, emit);
  }

  private itemDone(outputIndex: number, rawItem: unknown, emit: Emit): void {
    const item = isRecord(rawItem) ? rawItem : {};
    const state = this.openItem(outputIndex, rawItem, emit);
    switch (state.kind) {
      case "message": {
        const content = Array.isArray(item["content"]) ? item["content"] : [];
        content.forEach((block: unknown, k) => {
          if (!isTextPart(block)) return;
          const part = this.contentPart(state, k, emit);
          this.logprobs(part, block["logprobs"], false, emit);
          this.textDone(part, str(block["text"]) || str(block["refusal"]), false, emit);
          this.citeDone(part, block["annotations"], emit);
          this.close(part, emit);
        });
        for (const part of state.parts.values()) this.close(part, emit);
        return;
      }
      case "wrapper":
        this.resolveWrapper(state, str(item["arguments"]), emit);
        return;
      case "function_call":
        if (!state.said) {
          const args = str(state.custom ? item["input"] : item["arguments"]);
          this.sayArguments(state, args || state.pending, emit);
        }
        this.close(state, emit);
        return;
      case "reasoning": {
        const summary = Array.isArray(item["summary"]) ? item["summary"] : [];
        summary.forEach((section: unknown, k) => {
          if (isRecord(section)) this.thinkingDone(state, `s${k}`, str(section["text"]), emit);
        });
        const content = Array.isArray(item["content"]) ? item["content"] : [];
        content.forEach((section: unknown, k) => {
          if (isRecord(section)) this.thinkingDone(state, `c${k}`, str(section["text"]), emit);
        });
        // The finished item's encrypted_content is the one to send back (the added one differs).
        const signature = item["encrypted_content"];
        if (typeof signature === "string" && signature !== "") {
          emit({ type: "signature-delta", index: state.index, signature });
        }
        this.close(state, emit);
        return;
      }
      case "other":
        return;
    }
  }

  /**
   * A reasoning item marked by this format's encoder (opaque-reasoning.ts) stands for redacted
   * thinking, or for the signature of a call or text: it becomes that, not a thinking part.
   */
  private opaque(content: unknown, emit: Emit): boolean {
    if (typeof content !== "string") return false;
    if (content.startsWith(REDACTED_PREFIX)) {
      const index = this.nextIndex++;
      emit({ type: "redacted-thinking", index, data: content.slice(REDACTED_PREFIX.length) });
      emit({ type: "part-end", index });
      return true;
    }
    const signed = parseSignatureContent(content);
    if (signed === undefined) return false;
    const index = signed.callId === "" ? this.lastText : this.callParts.get(signed.callId);
    if (index !== undefined) emit({ type: "signature-delta", index, signature: signed.signature });
    return true;
  }

  private close(part: PartState, emit: Emit): void {
    if (part.closed) return;
    part.closed = true;
    this.open.delete(part.index);
    emit({ type: "part-end", index: part.index });
  }

  /**
   * Closes every open part. A call the response completed without any arguments gets "{}"; a
   * call cut off (error, truncated stream) keeps only what arrived.
   */
  private closeAll(emit: Emit, completed = false): void {
    for (const wrapper of this.wrappers) this.resolveWrapper(wrapper, "", emit);
    for (const part of this.open.values()) {
      if ("kind" in part && part.kind === "function_call" && !part.said) {
        const call = part as CallItem;
        if (completed || call.pending !== "") this.sayArguments(call, call.pending, emit);
      }
      part.closed = true;
      emit({ type: "part-end", index: part.index });
    }
    this.open.clear();
  }

  private terminal(type: string, event: Json, emit: Emit): void {
    const response = isRecord(event["response"]) ? event["response"] : {};
    if (!this.started) this.start(response, emit);
    // Items that only the final response object carries (a proxy that skips item events).
    const output = Array.isArray(response["output"]) ? response["output"] : [];
    output.forEach((item: unknown, i) => {
      if (!this.items.has(i)) {
        this.openItem(i, item, emit);
        this.itemDone(i, item, emit);
      }
    });
    this.closeAll(emit, type !== "response.failed");
    this.ended = true;
    if (type === "response.failed") {
      if (!this.failed) emit({ type: "error", error: errorFromResponsesWire(event) });
      this.failed = true;
    } else {
      const status =
        typeof response["status"] === "string"
          ? response["status"]
          : type === "response.incomplete"
            ? "incomplete"
            : "completed";
      const details = isRecord(response["incomplete_details"])
        ? response["incomplete_details"]
        : {};
      const reason = typeof details["reason"] === "string" ? details["reason"] : undefined;
      emit({
        type: "finish",
        finishReason: parseResponsesFinishReason(status, reason, this.madeFunctionCalls),
      });
    }
    const usage = responsesUsageSchema.safeParse(response["usage"]);
    if (usage.success) emit({ type: "usage", usage: parseResponsesUsage(usage.data) });
  }
}

/** Responses SSE messages -> canonical stream events, emitted as each message arrives. */
export function decodeResponsesStream(): TransformStream<SseMessage, StreamEvent> {
  return pushStream(new ResponsesStreamDecoder());
}

/** The same decoding over a list, for callers that already hold every message. */
export function decodeResponsesEvents(messages: Iterable<SseMessage>): StreamEvent[] {
  const events: StreamEvent[] = [];
  const emit = (event: StreamEvent) => events.push(event);
  const decoder = new ResponsesStreamDecoder();
  for (const message of messages) decoder.push(message, emit);
  decoder.end(emit);
  return events;
}
