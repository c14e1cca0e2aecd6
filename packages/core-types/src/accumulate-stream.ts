import type { AssistantPart } from "./content-part.js";
import type { FinishReason } from "./finish-reason.js";
import type { OutputLogprobs } from "./logprobs.js";
import type { OutputProviderExtras, ReplyProviderExtras } from "./provider-extras.js";
import type { IndexedOutput, Response } from "./response.js";
import { withOutputs } from "./response-outputs.js";
import type { StreamEvent, StreamEventOf } from "./stream-event.js";
import type { Usage } from "./usage.js";
import { unknownUsage } from "./usage-values.js";

interface OutputState {
  parts: Map<number, AssistantPart>;
  finishReason?: FinishReason;
  stopSequence?: string;
  logprobs?: OutputLogprobs;
  providerExtras?: OutputProviderExtras;
}

/**
 * Folds canonical stream events into the response they describe (law 4: a stream, accumulated,
 * equals the non-streamed response). Pushing is O(1) per event; string fragments are collected
 * in arrays and joined once at the end.
 */
export class StreamAccumulator {
  private id = "";
  private model = "";
  private created = 0;
  private usage: Usage = unknownUsage(); // until a usage event says otherwise
  private providerExtras: ReplyProviderExtras | undefined;
  /** By output index: 0 the primary output (events without `alternative`), else alternatives. */
  private readonly outputs = new Map<number, OutputState>();
  private readonly fragments = new Map<AssistantPart, string[]>();
  /** Parts whose `part-end` arrived. */
  private readonly ended = new Set<AssistantPart>();
  /** The first error event, if the stream carried one. */
  error: StreamEventOf<"error">["error"] | undefined;

  push(event: StreamEvent): void {
    switch (event.type) {
      case "response-start":
        if (!this.id) {
          this.id = event.id;
          this.model = event.model;
          this.created = event.created;
        }
        return;
      case "part-start":
        this.part(event, () =>
          event.kind === "text" ? { type: "text", text: "" } : { type: "thinking", text: "" },
        );
        return;
      case "text-delta":
        this.append(
          this.part(event, () => ({ type: "text", text: "" })),
          event.delta,
        );
        return;
      case "thinking-delta":
        this.append(
          this.part(event, () => ({ type: "thinking", text: "" })),
          event.delta,
        );
        return;
      case "signature-delta": {
        const part = this.part(event, () => ({ type: "thinking", text: "" }));
        if (part.type === "text" || part.type === "thinking" || part.type === "tool-call") {
          part.signature = (part.signature ?? "") + event.signature;
        }
        return;
      }
      case "redacted-thinking":
        this.part(event, () => ({ type: "redacted-thinking", data: event.data }));
        return;
      case "tool-call-start":
        this.part(event, () => ({
          type: "tool-call",
          id: event.id,
          name: event.name,
          arguments: "",
          ...(event.namespace === undefined ? {} : { namespace: event.namespace }),
          ...(event.custom === undefined ? {} : { custom: event.custom }),
        }));
        return;
      case "tool-arguments-delta":
        this.append(
          this.part(event, () => ({ type: "tool-call", id: "", name: "", arguments: "" })),
          event.delta,
        );
        return;
      case "citation": {
        const part = this.part(event, () => ({ type: "text", text: "" }));
        if (part.type !== "text") return;
        part.citations ??= [];
        part.citations.push(event.citation);
        return;
      }
      case "part-end": {
        const part = this.output(event.alternative ?? 0).parts.get(event.index);
        if (part) this.ended.add(part);
        return;
      }
      case "usage":
        this.usage = event.usage;
        return;
      case "finish": {
        const state = this.output(event.alternative ?? 0);
        state.finishReason = event.finishReason;
        if (event.stopSequence !== undefined) state.stopSequence = event.stopSequence;
        if (event.providerExtras !== undefined) state.providerExtras = event.providerExtras;
        return;
      }
      case "provider-extras":
        this.providerExtras = { ...this.providerExtras, ...event.providerExtras };
        return;
      case "error":
        this.error ??= event.error;
        return;
      case "logprobs": {
        const state = this.output(event.alternative ?? 0);
        state.logprobs ??= { content: [] };
        state.logprobs.content.push(...event.content);
        if (event.average !== undefined) state.logprobs.average = event.average;
        return;
      }
    }
  }

  /**
   * The response so far; no event for index 0 makes it `noOutput`. `endedOnly`: without the parts
   * whose `part-end` never came (a stream cut in the middle of them: half a text, a tool call
   * with half its arguments).
   */
  result({ endedOnly = false }: { endedOnly?: boolean } = {}): Response {
    const outputs: IndexedOutput[] = [...this.outputs.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, state]) => {
        const parts = [...state.parts.entries()]
          .sort(([a], [b]) => a - b)
          .filter(([, part]) => !endedOnly || this.ended.has(part))
          .map(([, part]) => this.finishPart(part));
        const output: IndexedOutput = {
          index,
          message: { role: "assistant", parts },
          finishReason: state.finishReason ?? { unified: "other" },
        };
        if (state.stopSequence !== undefined) output.stopSequence = state.stopSequence;
        if (state.logprobs !== undefined) output.logprobs = state.logprobs;
        if (state.providerExtras !== undefined) output.providerExtras = state.providerExtras;
        return output;
      });
    const base: Parameters<typeof withOutputs>[0] = {
      id: this.id,
      model: this.model,
      created: this.created,
      usage: this.usage,
    };
    if (this.providerExtras !== undefined) base.providerExtras = this.providerExtras;
    // Sorted by index, so nothing is reordered or repeated: no warning can arise.
    return withOutputs(base, outputs, undefined, (i) => `outputs[${i}]`);
  }

  private output(index: number): OutputState {
    let state = this.outputs.get(index);
    if (!state) {
      state = { parts: new Map() };
      this.outputs.set(index, state);
    }
    return state;
  }

  private part(
    event: { index: number; alternative?: number },
    create: () => AssistantPart,
  ): AssistantPart {
    const parts = this.output(event.alternative ?? 0).parts;
    let part = parts.get(event.index);
    if (!part) {
      part = create();
      parts.set(event.index, part);
    }
    return part;
  }

  private append(part: AssistantPart, delta: string): void {
    let list = this.fragments.get(part);
    if (!list) {
      list = [];
      this.fragments.set(part, list);
    }
    list.push(delta);
  }

  private finishPart(part: AssistantPart): AssistantPart {
    const list = this.fragments.get(part);
    if (!list) return part;
    const joined = list.join("");
    if (part.type === "text" || part.type === "thinking")
      return { ...part, text: part.text + joined };
    if (part.type === "tool-call") return { ...part, arguments: part.arguments + joined };
    return part;
  }
}

export function accumulateStream(events: Iterable<StreamEvent>): Response {
  const accumulator = new StreamAccumulator();
  for (const event of events) accumulator.push(event);
  return accumulator.result();
}
