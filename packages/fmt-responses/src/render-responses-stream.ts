import type {
  Citation,
  FinishReason,
  SseMessage,
  StreamEncodeOptions,
  StreamEvent,
  StreamEventOf,
  TokenLogprob,
  Usage,
} from "@interlingua/core-types";
import { pushStream } from "@interlingua/core-types";
import { errorToResponsesWire } from "./map-responses-error.js";
import { droppedBlockReason, renderResponsesFinishReason } from "./map-responses-finish-reason.js";
import { renderResponsesUsage } from "./map-responses-usage.js";
import { REDACTED_PREFIX, signatureContent } from "./opaque-reasoning.js";
import { urlCitationAnnotation } from "./responses-citations.js";
import { renderResponsesEventLogprobs, renderResponsesLogprobs } from "./responses-logprobs.js";

type Send = (message: SseMessage) => void;
type Json = Record<string, unknown>;

interface OutputItem {
  kind: "message" | "reasoning" | "function_call";
  outputIndex: number;
  id: string;
  /** `id` as a JSON string, made on the first delta frame. */
  quotedId?: string;
  fragments: string[];
  signature: string;
  summaryOpen: boolean;
  callId: string;
  name: string;
  /** A call of a tool inside a `namespace` tool. */
  namespace: string | undefined;
  /** A custom_tool_call item: raw `input`, its own delta and done events. */
  custom: boolean;
  done: boolean;
  /** A message's url_citation annotations so far, repeated by its done frames. */
  annotations: Json[];
  /** Citations over the whole text, written at the item's end, when its length is known. */
  wholeCitations: Citation[];
}

const itemPrefix = { message: "msg", reasoning: "rs", function_call: "fc" } as const;

/**
 * Canonical events -> OpenAI Responses stream events (SSE `event:` set to the type, every payload
 * numbered by `sequence_number`, no `[DONE]`: the stream ends with response.completed,
 * response.incomplete or response.failed). Each canonical part is one output item: text a message
 * item with one output_text part, thinking a reasoning item (its signature as encrypted_content),
 * a tool call a function_call item. Every frame is written when its event arrives; the `.done`
 * frames and the final response object repeat the content, as OpenAI's do, so the encoder keeps
 * each part's text until the stream ends. The terminal frame waits for the end of the input,
 * because usage may follow the finish.
 */
export class ResponsesStreamEncoder {
  private seq = 0;
  private started = false;
  private id = "";
  private stem = "";
  private model = "";
  private created = 0;
  private readonly items = new Map<number, OutputItem>();
  private readonly output: Json[] = [];
  private nextOutputIndex = 0;
  /** Items that stand for no canonical part (signatures of calls and text), keyed -1, -2, ... */
  private sideItems = 0;
  private finishReason: FinishReason | undefined;
  private usage: Usage | undefined;
  private failed = false;
  private readonly warned = new Set<string>();
  /** Token logprobs not yet written: they go on the next output_text to be finished. */
  private readonly pendingLogprobs: TokenLogprob[] = [];
  /**
   * With logprobs asked for, the last text delta, not yet written: decoders emit a chunk's
   * tokens right after its text, and the delta frame carries them (OpenAI's does).
   */
  private heldText: { item: OutputItem; delta: string } | undefined;

  constructor(private readonly options: StreamEncodeOptions = {}) {}

  push(event: StreamEvent, send: Send): void {
    if (this.failed) return;
    if ("alternative" in event && event.alternative !== undefined && event.alternative > 0) {
      this.warnOnce(
        "choices",
        "the responses stream carries one choice; later choices are dropped",
      );
      return;
    }
    this.writeText(send, event.type === "logprobs" ? event.content : []);
    switch (event.type) {
      case "response-start":
        this.start(event, send);
        return;
      case "part-start":
        if (!this.items.has(event.index)) {
          this.openItem(event.index, event.kind === "text" ? "message" : "reasoning", send);
        }
        return;
      case "text-delta": {
        const item = this.itemFor(event.index, "message", send);
        if (!item || event.delta === "") return;
        item.fragments.push(event.delta);
        this.heldText = { item, delta: event.delta };
        if (this.options.logprobs !== true) this.writeText(send, []);
        return;
      }
      case "thinking-delta": {
        const item = this.itemFor(event.index, "reasoning", send);
        if (!item || event.delta === "") return;
        this.openSummary(item, send);
        item.fragments.push(event.delta);
        this.delta(
          send,
          "response.reasoning_summary_text.delta",
          item,
          ',"summary_index":0',
          event.delta,
          "",
        );
        return;
      }
      case "signature-delta": {
        const item = this.items.get(event.index) ?? this.openItem(event.index, "reasoning", send);
        if (item.kind === "reasoning") {
          item.signature += event.signature;
          return;
        }
        // A signed call or text: its signature rides in a marked reasoning item of its own.
        const side = this.openItem(
          -++this.sideItems,
          "reasoning",
          send,
          signatureContent(item.kind === "function_call" ? item.callId : "", event.signature),
        );
        this.closeItem(side, send);
        return;
      }
      case "redacted-thinking": {
        if (this.items.has(event.index)) return;
        this.openItem(event.index, "reasoning", send, REDACTED_PREFIX + event.data);
        return;
      }
      case "tool-call-start":
        if (!this.items.has(event.index)) this.openCall(event.index, event, send);
        return;
      case "tool-arguments-delta": {
        const item =
          this.items.get(event.index) ?? this.openCall(event.index, { id: "", name: "" }, send);
        if (item.kind !== "function_call" || item.done || event.delta === "") return;
        item.fragments.push(event.delta);
        const type = item.custom
          ? "response.custom_tool_call_input.delta"
          : "response.function_call_arguments.delta";
        this.delta(send, type, item, "", event.delta, "");
        return;
      }
      case "citation":
        this.citation(event, send);
        return;
      case "part-end": {
        const item = this.items.get(event.index);
        if (item && !item.done) this.closeItem(item, send);
        return;
      }
      case "usage":
        this.usage = event.usage;
        return;
      case "finish":
        this.finishReason = event.finishReason;
        this.warnBlockReason(event.finishReason);
        if (event.stopSequence !== undefined) {
          this.warnOnce(
            "choices.stopSequence",
            "the responses stream does not name the stop sequence",
          );
        }
        if (event.providerExtras?.gemini?.safetyRatings !== undefined) {
          this.warnOnce("choices.safetyRatings", "the responses stream has no safety ratings");
        }
        return;
      case "provider-extras":
        if (event.providerExtras.gemini?.promptFeedback !== undefined) {
          this.warnOnce("promptFeedback", "the responses stream has no prompt feedback");
        }
        return;
      case "logprobs":
        if (event.average !== undefined) {
          this.warnOnce("logprobs.average", "the responses stream has no mean log probability");
        }
        if (event.content.some((t) => t.tokenId !== undefined)) {
          this.warnOnce("logprobs.tokenId", "the responses stream has no token ids");
        }
        this.pendingLogprobs.push(...event.content);
        return;
      case "error":
        this.fail(event.error, send);
        return;
    }
  }

  /** The held text delta, with the tokens it carries (OpenAI's event form: no bytes). */
  private writeText(send: Send, tokens: readonly TokenLogprob[]): void {
    const held = this.heldText;
    if (held === undefined) return;
    this.heldText = undefined;
    this.delta(
      send,
      "response.output_text.delta",
      held.item,
      ',"content_index":0',
      held.delta,
      `,"logprobs":${JSON.stringify(renderResponsesEventLogprobs(tokens))}`,
    );
  }

  /** End of input: open items are finished and the terminal frame carries output and usage. */
  end(send: Send): void {
    this.writeText(send, []);
    if (this.failed || !this.started) return;
    for (const item of this.items.values()) if (!item.done) this.closeItem(item, send);
    if (this.pendingLogprobs.length > 0) {
      this.warnOnce("logprobs", "no output_text follows these tokens' logprobs");
    }
    const terminal = renderResponsesFinishReason(this.finishReason ?? { unified: "stop" });
    const usage = this.usage
      ? renderResponsesUsage(this.usage, (w) => this.warnOnce(w.feature, w.message))
      : null;
    if (terminal.status === "failed") {
      this.frame(send, {
        type: "response.failed",
        sequence_number: this.seq++,
        response: this.snapshot("failed", {
          error: { code: "server_error", message: "The response ended with an error" },
          usage,
        }),
      });
      return;
    }
    const type = terminal.status === "completed" ? "response.completed" : "response.incomplete";
    this.frame(send, {
      type,
      sequence_number: this.seq++,
      response: this.snapshot(terminal.status, {
        incomplete_details:
          terminal.status === "incomplete" ? { reason: terminal.incompleteReason ?? null } : null,
        usage,
      }),
    });
  }

  private frame(send: Send, payload: Json & { type: string }): void {
    send({ event: payload.type, data: JSON.stringify(payload) });
  }

  /**
   * A `.delta` frame as a template: these are nearly every frame of a stream, and writing them
   * around one quoted string skips building and walking a fresh object. The bytes are those
   * `frame` writes for `{type, sequence_number, item_id, output_index, ...before, delta, ...after}`.
   */
  private delta(
    send: Send,
    type: string,
    item: OutputItem,
    before: string,
    delta: string,
    after: string,
  ): void {
    item.quotedId ??= JSON.stringify(item.id);
    send({
      event: type,
      data: `{"type":"${type}","sequence_number":${this.seq++},"item_id":${item.quotedId},"output_index":${item.outputIndex}${before},"delta":${JSON.stringify(delta)}${after}}`,
    });
  }

  /** A block reason (Gemini's, an Anthropic refusal's details) the stream has no field for. */
  private warnBlockReason(reason: FinishReason): void {
    const lost = droppedBlockReason(reason);
    if (lost !== undefined) this.warnOnce("finishReason.raw", lost);
  }

  private warnOnce(feature: string, message: string): void {
    if (this.warned.has(feature)) return;
    this.warned.add(feature);
    this.options.onWarning?.({ type: "dropped", feature, message });
  }

  private snapshot(status: string, fields: Json = {}): Json {
    return {
      id: this.id,
      object: "response",
      created_at: this.created,
      status,
      error: null,
      incomplete_details: null,
      model: this.model,
      output: this.output,
      // OpenAI's schema types usage as an object: until it is known the key is left out.
      ...fields,
    };
  }

  private start(event: { id: string; model: string; created: number }, send: Send): void {
    if (this.started) return;
    this.started = true;
    this.id = event.id;
    this.stem = event.id.startsWith("resp_") ? event.id.slice(5) : event.id;
    this.model = event.model;
    this.created = event.created;
    for (const type of ["response.created", "response.in_progress"] as const) {
      this.frame(send, {
        type,
        sequence_number: this.seq++,
        response: this.snapshot("in_progress", { output: [] }),
      });
    }
  }

  /** `opaque`: marked encrypted_content known from the start (opaque-reasoning.ts), also on added. */
  private openItem(index: number, kind: OutputItem["kind"], send: Send, opaque = ""): OutputItem {
    if (!this.started) this.start({ id: "", model: "", created: 0 }, send);
    const outputIndex = this.nextOutputIndex++;
    const id =
      this.stem === ""
        ? `${itemPrefix[kind]}_${outputIndex}`
        : `${itemPrefix[kind]}_${this.stem}_${outputIndex}`;
    const item: OutputItem = {
      kind,
      outputIndex,
      id,
      fragments: [],
      signature: opaque,
      summaryOpen: false,
      callId: "",
      name: "",
      namespace: undefined,
      custom: false,
      done: false,
      annotations: [],
      wholeCitations: [],
    };
    this.items.set(index, item);
    if (kind === "function_call") return item;
    this.frame(send, {
      type: "response.output_item.added",
      sequence_number: this.seq++,
      output_index: outputIndex,
      item:
        kind === "message"
          ? { id, type: "message", status: "in_progress", role: "assistant", content: [] }
          : opaque === ""
            ? { id, type: "reasoning", summary: [] }
            : { id, type: "reasoning", summary: [], encrypted_content: opaque },
    });
    if (kind === "message") {
      this.frame(send, {
        type: "response.content_part.added",
        sequence_number: this.seq++,
        item_id: id,
        output_index: outputIndex,
        content_index: 0,
        part: { type: "output_text", annotations: [], logprobs: [], text: "" },
      });
    }
    return item;
  }

  private openCall(
    index: number,
    call: { id: string; name: string; namespace?: string; custom?: true },
    send: Send,
  ): OutputItem {
    const item = this.openItem(index, "function_call", send);
    item.callId = call.id;
    item.name = call.name;
    item.namespace = call.namespace;
    item.custom = call.custom === true;
    // OpenAI's prefix for custom tool call items.
    if (item.custom) item.id = `ctc${item.id.slice(2)}`;
    this.frame(send, {
      type: "response.output_item.added",
      sequence_number: this.seq++,
      output_index: item.outputIndex,
      item: this.callItem(item, "in_progress", ""),
    });
    return item;
  }

  /** A function_call (with its namespace, if any) or custom_tool_call item. */
  private callItem(item: OutputItem, status: string, args: string): Json {
    if (item.custom) {
      return {
        id: item.id,
        type: "custom_tool_call",
        status,
        call_id: item.callId,
        name: item.name,
        input: args,
      };
    }
    return {
      id: item.id,
      type: "function_call",
      status,
      arguments: args,
      call_id: item.callId,
      name: item.name,
      ...(item.namespace === undefined ? {} : { namespace: item.namespace }),
    };
  }

  /** The open item at `index` if it has the kind the event needs; a missing one is opened. */
  private itemFor(
    index: number,
    kind: "message" | "reasoning",
    send: Send,
  ): OutputItem | undefined {
    const item = this.items.get(index) ?? this.openItem(index, kind, send);
    return item.kind === kind && !item.done ? item : undefined;
  }

  private openSummary(item: OutputItem, send: Send): void {
    if (item.summaryOpen) return;
    item.summaryOpen = true;
    this.frame(send, {
      type: "response.reasoning_summary_part.added",
      sequence_number: this.seq++,
      item_id: item.id,
      output_index: item.outputIndex,
      summary_index: 0,
      part: { type: "summary_text", text: "" },
    });
  }

  /**
   * A citation as an annotation event of its message's output_text; one over the whole text
   * waits for the item's end. url_citation has no cited text (reported).
   */
  private citation(event: StreamEventOf<"citation">, send: Send): void {
    const item = this.items.get(event.index);
    if (item?.kind !== "message" || item.done) {
      this.warnOnce("parts.citations", "a citation outside an open output_text is dropped");
      return;
    }
    const c = event.citation;
    if (c.citedText !== undefined) {
      this.warnOnce("parts.citations.citedText", "url_citation has no cited text");
    }
    if (c.endIndex === undefined) item.wholeCitations.push(c);
    else this.annotate(item, urlCitationAnnotation(c, c.startIndex ?? 0, c.endIndex), send);
  }

  private annotate(item: OutputItem, annotation: Json, send: Send): void {
    this.frame(send, {
      type: "response.output_text.annotation.added",
      sequence_number: this.seq++,
      item_id: item.id,
      output_index: item.outputIndex,
      content_index: 0,
      annotation_index: item.annotations.length,
      annotation,
    });
    item.annotations.push(annotation);
  }

  private closeItem(item: OutputItem, send: Send): void {
    item.done = true;
    const text = item.fragments.join("");
    const at = { item_id: item.id, output_index: item.outputIndex };
    let final: Json;
    switch (item.kind) {
      case "message": {
        for (const c of item.wholeCitations) {
          this.annotate(item, urlCitationAnnotation(c, c.startIndex ?? 0, text.length), send);
        }
        // The tokens streamed so far are this text's (logprobs ride on output_text parts).
        const tokens = this.pendingLogprobs.splice(0);
        const part = {
          type: "output_text",
          annotations: item.annotations,
          logprobs: renderResponsesLogprobs(tokens),
          text,
        };
        this.frame(send, {
          type: "response.output_text.done",
          sequence_number: this.seq++,
          ...at,
          content_index: 0,
          text,
          logprobs: renderResponsesEventLogprobs(tokens),
        });
        this.frame(send, {
          type: "response.content_part.done",
          sequence_number: this.seq++,
          ...at,
          content_index: 0,
          part,
        });
        final = {
          id: item.id,
          type: "message",
          status: "completed",
          role: "assistant",
          content: [part],
        };
        break;
      }
      case "reasoning": {
        const summary = { type: "summary_text", text };
        if (item.summaryOpen) {
          this.frame(send, {
            type: "response.reasoning_summary_text.done",
            sequence_number: this.seq++,
            ...at,
            summary_index: 0,
            text,
          });
          this.frame(send, {
            type: "response.reasoning_summary_part.done",
            sequence_number: this.seq++,
            ...at,
            summary_index: 0,
            part: summary,
          });
        }
        final = { id: item.id, type: "reasoning", summary: text === "" ? [] : [summary] };
        if (item.signature !== "") final["encrypted_content"] = item.signature;
        break;
      }
      case "function_call": {
        if (item.custom) {
          this.frame(send, {
            type: "response.custom_tool_call_input.done",
            sequence_number: this.seq++,
            ...at,
            input: text,
          });
          final = this.callItem(item, "completed", text);
          break;
        }
        const args = text === "" ? "{}" : text;
        this.frame(send, {
          type: "response.function_call_arguments.done",
          sequence_number: this.seq++,
          ...at,
          name: item.name,
          arguments: args,
        });
        final = this.callItem(item, "completed", args);
        break;
      }
    }
    this.output[item.outputIndex] = final;
    this.frame(send, {
      type: "response.output_item.done",
      sequence_number: this.seq++,
      output_index: item.outputIndex,
      item: final,
    });
  }

  private fail(error: StreamEventOf<"error">["error"], send: Send): void {
    if (!this.started) this.start({ id: "", model: "", created: 0 }, send);
    this.failed = true;
    const wire = errorToResponsesWire(error);
    this.frame(send, { type: "error", sequence_number: this.seq++, ...wire });
    this.frame(send, {
      type: "response.failed",
      sequence_number: this.seq++,
      response: this.snapshot("failed", { error: { code: wire.code, message: error.message } }),
    });
  }
}

/** Canonical stream events -> Responses SSE messages, written as each event arrives. */
export function encodeResponsesStream(
  options: StreamEncodeOptions = {},
): TransformStream<StreamEvent, SseMessage> {
  return pushStream(new ResponsesStreamEncoder(options));
}

/** The same encoding over a list, for callers that already hold every event. */
export function encodeResponsesEvents(
  events: Iterable<StreamEvent>,
  options: StreamEncodeOptions = {},
): SseMessage[] {
  const messages: SseMessage[] = [];
  const send = (message: SseMessage) => messages.push(message);
  const encoder = new ResponsesStreamEncoder(options);
  for (const event of events) encoder.push(event, send);
  encoder.end(send);
  return messages;
}
