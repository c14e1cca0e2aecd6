import {
  type Citation,
  moveThinkingSignature,
  parseJsonKeepingNumbers,
  pushStream,
  type SseMessage,
  type StreamEncodeOptions,
  type StreamEvent,
  type StreamEventOf,
  stringifyJsonKeepingNumbers,
} from "@interlingua/core-types";
import { isBlockedFinish } from "./blocked-prompt.js";
import { renderNativeFinishMessage, renderNativeFinishReason } from "./map-native-finish-reason.js";
import { renderNativeUsage } from "./map-native-usage.js";
import type { NativeCandidate, NativePart, NativeResponseWire } from "./native-api.js";
import { renderGrounding } from "./native-grounding.js";
import { renderNativeLogprobs } from "./native-logprobs.js";
import { nativeStatusFor } from "./native-status.js";
import { isGeneratedCallId } from "./native-tool-call-ids.js";
import { createTimeOf } from "./parse-native-response.js";
import { renderPromptFeedback, renderSafetyRating } from "./render-native-response.js";

interface PendingCall {
  id: string;
  name: string;
  args: string[];
  signature: string | undefined;
  /** Its part-end came; it waits only for calls before it (calls go out in index order). */
  ended: boolean;
}

type Located = { index: number; alternative?: number };
interface Answer {
  text: string;
  starts: Map<number, number>;
  ends: Map<number, number>;
  cited: { index: number; citation: Citation }[];
}
const keyOf = (e: Located) => `${e.alternative ?? 0}:${e.index}`;

/**
 * Canonical events -> Gemini stream chunks (`SseMessage{data}`; the SSE framing and the absence
 * of a terminator are the upstream's convention, no [DONE]). Each event that carries content is
 * written at once as its own chunk, with the responseId and modelVersion every upstream chunk
 * has. The exceptions the wire imposes: a function call is written whole at its part-end (the
 * wire streams no argument text), and a text part's signature is written as an empty text part
 * carrying it, as the upstream itself does. Usage is written as a chunk of its own each time it
 * arrives.
 */
/**
 * Finishes whose frame carries an empty text part, as Gemini's last frame does: @google/genai chat
 * sessions drop a streamed turn, and the user input before it, when a frame has no content. A
 * blocked or failed finish stays without, so those sessions curate it away as for Gemini.
 */
const finishKeepsTurn: Readonly<Record<string, true>> = { STOP: true, MAX_TOKENS: true };

export class NativeStreamEncoder {
  private id = "";
  private model = "";
  private createTime: string | undefined;
  /** `,"modelVersion":…,"createTime":…,"responseId":…}` closing every frame, built once. */
  private tail: string | undefined;
  private readonly kinds = new Map<string, "text" | "thinking">();
  private readonly calls = new Map<string, PendingCall>();
  private readonly dropped = new Set<string>();
  /** A blocked prompt's reason; its content-filter finish writes no candidate (blocked-prompt.ts). */
  private blockReason: string | undefined;
  private sawContent = false;
  /**
   * A thinking part's signature (an Anthropic upstream's), by choice, waiting for the next
   * functionCall or visible text: Gemini clients drop thought parts without text, and real Gemini
   * signs those parts, so that is where the signature goes; at the finish, an empty visible text
   * part carries it.
   */
  /**
   * Per choice, the signature of a thinking part with the part's text, held for the next visible
   * part: Gemini clients keep thought parts' text only as a display, so the signature carries it.
   */
  private readonly heldSignatures = new Map<
    number,
    { key: string; signature: string; text: string }
  >();
  /** The text of each open thinking part so far, by part. */
  private readonly thinkingTexts = new Map<string, string>();
  /** An error frame went out: only usage may follow it, never a call or text written late. */
  private failed = false;
  /**
   * Usage not written yet (JSON text): Gemini puts usageMetadata beside candidates, so it rides
   * on the next candidate frame, never alone ahead of the first one.
   */
  private pendingUsage: string | undefined;
  /**
   * Finish frames, held until the next frame or the end, so usage that follows a finish (OpenAI's
   * comes last) is written beside it.
   */
  private readonly finishes: SseMessage[] = [];
  /**
   * Per choice, the visible answer so far, where each text part starts and ends in it, and the
   * citations to write as the finish's groundingMetadata (segments index the whole answer).
   */
  private readonly answers = new Map<number, Answer>();

  constructor(private readonly options: StreamEncodeOptions = {}) {}

  push(event: StreamEvent, emit: (message: SseMessage) => void): void {
    if (this.failed && event.type !== "usage") return;
    this.emitEvent(event, (message) => {
      // A frame after a finish (another choice's): the finish goes first, its order kept.
      this.releaseFinishes(emit);
      emit(this.withUsage(message));
    });
  }

  private releaseFinishes(emit: (message: SseMessage) => void): void {
    for (const finish of this.finishes) emit(this.withUsage(finish));
    this.finishes.length = 0;
  }

  private emitEvent(event: StreamEvent, emit: (message: SseMessage) => void): void {
    // Content, logprobs included, makes a candidate: the finish is then not a blocked prompt's.
    if (
      (event.type !== "provider-extras" && event.type !== "response-start" && "index" in event) ||
      event.type === "logprobs"
    ) {
      this.sawContent = true;
    }
    switch (event.type) {
      case "response-start":
        this.id = event.id;
        this.model = event.model;
        this.createTime = createTimeOf(event.created);
        this.tail = undefined;
        return;
      case "provider-extras": {
        const feedback = event.providerExtras.gemini?.promptFeedback;
        if (feedback === undefined) return;
        if (feedback.blockReason !== undefined) this.blockReason = feedback.blockReason;
        emit(this.frame({ promptFeedback: renderPromptFeedback(feedback) }));
        return;
      }
      case "part-start":
        this.kinds.set(keyOf(event), event.kind);
        return;
      case "text-delta":
        if (event.delta !== "") {
          const choice = event.alternative ?? 0;
          const answer = this.answer(choice);
          if (!answer.starts.has(event.index)) answer.starts.set(event.index, answer.text.length);
          answer.text += event.delta;
          emit(this.textFrame(choice, event.delta, this.takeHeldSignature(choice)));
        }
        return;
      case "citation": {
        const answer = this.answer(event.alternative ?? 0);
        if (!answer.starts.has(event.index)) answer.starts.set(event.index, answer.text.length);
        answer.cited.push({ index: event.index, citation: event.citation });
        return;
      }
      case "thinking-delta":
        if (event.delta !== "") {
          const key = keyOf(event);
          this.thinkingTexts.set(key, (this.thinkingTexts.get(key) ?? "") + event.delta);
          emit(this.textFrame(event.alternative ?? 0, event.delta, ',"thought":true'));
        }
        return;
      case "signature-delta": {
        const call = this.calls.get(keyOf(event));
        if (call) {
          call.signature = (call.signature ?? "") + event.signature;
          return;
        }
        const key = keyOf(event);
        if (this.kinds.get(key) === "thinking") {
          const choice = event.alternative ?? 0;
          let held = this.heldSignatures.get(choice);
          // An earlier thinking's signature nothing took goes out before this one is held.
          if (held !== undefined && held.key !== key) this.flushHeld(choice, emit);
          held = this.heldSignatures.get(choice);
          this.heldSignatures.set(choice, {
            key,
            signature: (held?.signature ?? "") + event.signature,
            text: this.thinkingTexts.get(key) ?? "",
          });
          return;
        }
        emit(this.parts(event, [{ text: "", thoughtSignature: event.signature }]));
        return;
      }
      case "redacted-thinking":
        this.warnOnce(`${keyOf(event)}:redacted`, {
          feature: "redacted-thinking",
          message: "redacted thinking has no form in this format",
        });
        return;
      case "tool-call-start":
        this.calls.set(keyOf(event), {
          id: event.id,
          name: event.name,
          args: [],
          signature: undefined,
          ended: false,
        });
        return;
      case "tool-arguments-delta":
        this.calls.get(keyOf(event))?.args.push(event.delta);
        return;
      case "part-end": {
        const answer = this.answers.get(event.alternative ?? 0);
        if (answer?.starts.has(event.index)) answer.ends.set(event.index, answer.text.length);
        const key = keyOf(event);
        this.kinds.delete(key);
        this.thinkingTexts.delete(key);
        const call = this.calls.get(key);
        if (call) {
          call.ended = true;
          this.writeEndedCalls(event.alternative ?? 0, emit);
        }
        return;
      }
      case "finish":
        this.finish(event, emit);
        return;
      case "logprobs": {
        const choice = event.alternative ?? 0;
        const fields = renderNativeLogprobs(event, "logprobs", (w) =>
          this.warnOnce("logprobs.bytes", w),
        );
        if (Object.keys(fields).length > 0) {
          emit(this.frame({ candidates: [{ ...fields, index: choice }] }));
        }
        return;
      }
      case "usage": {
        const usageMetadata = renderNativeUsage(event.usage, this.options);
        if (this.failed) emit(this.frame({ usageMetadata }));
        else this.pendingUsage = stringifyJsonKeepingNumbers(usageMetadata);
        return;
      }
      case "error":
        this.failed = true;
        emit({
          data: JSON.stringify({
            error: {
              code: event.error.status,
              message: event.error.message,
              status: nativeStatusFor(event.error.status),
            },
          }),
        });
        return;
    }
  }

  /** Calls whose part-end never came are written at the end rather than lost. */
  end(emit: (message: SseMessage) => void): void {
    if (this.failed) return;
    this.flushCalls((message) => {
      this.releaseFinishes(emit);
      emit(this.withUsage(message));
    });
    // The last frame carries the usage, as Gemini's last chunk does; alone only without a finish.
    const last = this.finishes.pop();
    for (const finish of this.finishes) emit(finish);
    this.finishes.length = 0;
    if (last !== undefined) emit(this.withUsage(last));
    else if (this.pendingUsage !== undefined) emit(this.frame({}, this.pendingUsage));
    this.pendingUsage = undefined;
  }

  /** `message` with the pending usage beside its candidates (a candidate frame only). */
  private withUsage(message: SseMessage): SseMessage {
    const usage = this.pendingUsage;
    if (usage === undefined || !message.data.startsWith('{"candidates":')) return message;
    this.pendingUsage = undefined;
    return { ...message, data: `{"usageMetadata":${usage},${message.data.slice(1)}` };
  }

  private flushCalls(emit: (message: SseMessage) => void): void {
    const pending = [...this.calls.keys()].map(
      (key) => key.split(":").map(Number) as [number, number],
    );
    pending.sort(([c1, i1], [c2, i2]) => c1 - c2 || i1 - i2);
    for (const [choice, index] of pending) {
      const call = this.calls.get(keyOf({ index, alternative: choice }));
      if (call === undefined) continue;
      this.writeCall(call, index, choice, emit);
    }
    this.calls.clear();
    for (const choice of [...this.heldSignatures.keys()]) this.flushHeld(choice, emit);
  }

  /** A choice's pending calls by index. */
  private callsOf(choice: number): { index: number; call: PendingCall }[] {
    const out: { index: number; call: PendingCall }[] = [];
    for (const [key, call] of this.calls) {
      const [c, index] = key.split(":").map(Number) as [number, number];
      if (c === choice) out.push({ index, call });
    }
    return out.sort((a, b) => a.index - b.index);
  }

  /**
   * Ended calls are written in index order: one whose part-end came first (interleaved parallel
   * calls) waits for the open calls before it, so a Gemini client reads them in order.
   */
  private writeEndedCalls(choice: number, emit: (message: SseMessage) => void): void {
    for (const { index, call } of this.callsOf(choice)) {
      if (!call.ended) return;
      this.calls.delete(keyOf({ index, alternative: choice }));
      this.writeCall(call, index, choice, emit);
    }
  }

  /** Writes a call whole; one without a signature of its own takes the held thinking signature. */
  private writeCall(
    call: PendingCall,
    index: number,
    choice: number,
    emit: (message: SseMessage) => void,
  ): void {
    const held = this.heldSignatures.get(choice);
    if (call.signature === undefined && held !== undefined) {
      call.signature = moveThinkingSignature(held.signature, held.text);
      this.heldSignatures.delete(choice);
    }
    emit(this.parts({ index, alternative: choice }, [this.functionCall(call)]));
  }

  /** A held signature nothing took: on an empty visible text part, as Gemini ends a turn. */
  private flushHeld(choice: number, emit: (message: SseMessage) => void): void {
    const held = this.heldSignatures.get(choice);
    if (held === undefined) return;
    this.heldSignatures.delete(choice);
    emit(
      this.parts({ index: 0, alternative: choice }, [
        { text: "", thoughtSignature: moveThinkingSignature(held.signature, held.text) },
      ]),
    );
  }

  private finish(event: StreamEventOf<"finish">, emit: (message: SseMessage) => void): void {
    const choice = event.alternative ?? 0;
    const blocked =
      choice === 0 &&
      !this.sawContent &&
      event.providerExtras === undefined &&
      event.stopSequence === undefined &&
      isBlockedFinish(event, this.blockReason);
    if (blocked) return;
    for (const { index, call } of this.callsOf(choice)) {
      this.calls.delete(keyOf({ index, alternative: choice }));
      this.writeCall(call, index, choice, emit);
    }
    this.flushHeld(choice, emit);
    if (event.stopSequence !== undefined) {
      this.warnOnce(`${choice}:stop`, {
        feature: "stopSequence",
        message: "candidates do not name the stop sequence that ended them",
      });
    }
    const finishReason = renderNativeFinishReason(event.finishReason);
    const candidate: NativeCandidate = {
      ...(finishKeepsTurn[finishReason]
        ? { content: { role: "model", parts: [{ text: "" }] } }
        : {}),
      finishReason,
      ...renderNativeFinishMessage(event.finishReason),
      index: choice,
    };
    const safetyRatings = event.providerExtras?.gemini?.safetyRatings;
    if (safetyRatings !== undefined)
      candidate.safetyRatings = safetyRatings.map(renderSafetyRating);
    const grounding = this.grounding(choice);
    if (grounding !== undefined) candidate.groundingMetadata = grounding;
    this.finishes.push(this.frame({ candidates: [candidate] }));
  }

  private answer(choice: number): Answer {
    let answer = this.answers.get(choice);
    if (answer === undefined) {
      answer = { text: "", starts: new Map(), ends: new Map(), cited: [] };
      this.answers.set(choice, answer);
    }
    return answer;
  }

  /** A choice's citations, shifted from their parts into the whole answer, as groundingMetadata. */
  private grounding(choice: number): NativeCandidate["groundingMetadata"] {
    const answer = this.answers.get(choice);
    if (answer === undefined || answer.cited.length === 0) return undefined;
    const citations = answer.cited.map(({ index, citation }) => {
      const start = answer.starts.get(index) ?? 0;
      const end = answer.ends.get(index) ?? answer.text.length;
      return {
        ...citation,
        startIndex: start + (citation.startIndex ?? 0),
        endIndex: Math.min(end, start + (citation.endIndex ?? end - start)),
      };
    });
    answer.cited = [];
    return renderGrounding([{ text: answer.text, citations }], "parts", (w) =>
      this.warnOnce(`${choice}:citedText`, w),
    );
  }

  /** The held thinking signature as a text fragment's extra field, taken once. */
  private takeHeldSignature(choice: number): string {
    const held = this.heldSignatures.get(choice);
    if (held === undefined) return "";
    this.heldSignatures.delete(choice);
    return `,"thoughtSignature":${JSON.stringify(moveThinkingSignature(held.signature, held.text))}`;
  }

  private functionCall(call: PendingCall): NativePart {
    const text = call.args.join("");
    let args: Record<string, unknown> = {};
    if (text !== "") {
      try {
        const value: unknown = parseJsonKeepingNumbers(text);
        if (typeof value === "object" && value !== null && !Array.isArray(value)) {
          args = value as Record<string, unknown>;
        } else throw new TypeError("not an object");
      } catch {
        this.warnOnce(`call:${call.id}`, {
          feature: "tool-call.arguments",
          message:
            "functionCall.args must be a JSON object; the arguments were not one and were sent as {}",
        });
      }
    }
    const functionCall: NonNullable<NativePart["functionCall"]> = { name: call.name, args };
    if (!isGeneratedCallId(call.id)) functionCall.id = call.id;
    const part: NativePart = { functionCall };
    if (call.signature !== undefined) part.thoughtSignature = call.signature;
    return part;
  }

  private parts(at: Located, parts: NativePart[]): SseMessage {
    return this.frame({
      candidates: [{ content: { role: "model", parts }, index: at.alternative ?? 0 }],
    });
  }

  /**
   * A text or thought fragment: nearly every frame of a stream, so it is written as a template
   * around one quoted string rather than through `JSON.stringify` of a fresh response object;
   * the bytes are those `parts` writes.
   */
  private textFrame(choice: number, text: string, thought: string): SseMessage {
    this.tail ??= this.frameTail();
    return {
      data: `{"candidates":[{"content":{"role":"model","parts":[{"text":${JSON.stringify(text)}${thought}}]},"index":${choice}}]${this.tail}`,
    };
  }

  /** What `frame` adds after a body's own fields, closing brace included. */
  private frameTail(): string {
    const body = this.frame({}).data;
    return body === "{}" ? "}" : `,${body.slice(1)}`;
  }

  /** A frame of `body`; `usage` (JSON text) is written as its usageMetadata. */
  private frame(body: NativeResponseWire, usage?: string): SseMessage {
    if (this.model !== "") body.modelVersion = this.model;
    if (this.createTime !== undefined) body.createTime = this.createTime;
    if (this.id !== "") body.responseId = this.id;
    const data = stringifyJsonKeepingNumbers(body);
    if (usage === undefined) return { data };
    return {
      data:
        data === "{}" ? `{"usageMetadata":${usage}}` : `{"usageMetadata":${usage},${data.slice(1)}`,
    };
  }

  private warnOnce(key: string, warning: { feature: string; message: string }): void {
    if (this.dropped.has(key)) return;
    this.dropped.add(key);
    this.options.onWarning?.({ type: "dropped", ...warning });
  }
}

/** Canonical stream events -> `streamGenerateContent?alt=sse` frames. */
export function encodeNativeStream(
  options?: StreamEncodeOptions,
): TransformStream<StreamEvent, SseMessage> {
  return pushStream(new NativeStreamEncoder(options));
}
