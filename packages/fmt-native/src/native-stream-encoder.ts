import type {
  SseMessage,
  StreamEncodeOptions,
  StreamEvent,
  StreamEventOf,
} from "@interlingua/core-types";
import { nativeStatusFor } from "@interlingua/errors";
import { createTimeOf } from "./convert-from-native-response.js";
import { renderPromptFeedback, renderSafetyRating } from "./convert-to-native-response.js";
import { renderNativeFinishReason } from "./map-native-finish-reason.js";
import { renderNativeUsage } from "./map-native-usage.js";
import type { NativeCandidate, NativePart, NativeResponseWire } from "./native-api.js";
import { isGeneratedCallId } from "./native-tool-call-ids.js";

interface PendingCall {
  id: string;
  name: string;
  args: string[];
  signature: string | undefined;
}

type Located = { index: number; choice?: number };
const keyOf = (e: Located) => `${e.choice ?? 0}:${e.index}`;

/**
 * Canonical events -> Gemini stream chunks (`SseMessage{data}`; the SSE framing and the absence
 * of a terminator are the upstream's convention, no [DONE]). Each event that carries content is
 * written at once as its own chunk, with the responseId and modelVersion every upstream chunk
 * has. The exceptions the wire imposes: a function call is written whole at its part-end (the
 * wire streams no argument text), and a text part's signature is written as an empty text part
 * carrying it, as the upstream itself does. Usage is written as a chunk of its own each time it
 * arrives.
 */
export class NativeStreamEncoder {
  private id = "";
  private model = "";
  private createTime: string | undefined;
  /** `,"modelVersion":…,"createTime":…,"responseId":…}` closing every frame, built once. */
  private tail: string | undefined;
  private readonly kinds = new Map<string, "text" | "thinking">();
  private readonly calls = new Map<string, PendingCall>();
  private readonly dropped = new Set<string>();

  constructor(private readonly options: StreamEncodeOptions = {}) {}

  push(event: StreamEvent, emit: (message: SseMessage) => void): void {
    switch (event.type) {
      case "response-start":
        this.id = event.id;
        this.model = event.model;
        this.createTime = createTimeOf(event.created);
        this.tail = undefined;
        return;
      case "prompt-feedback":
        emit(this.frame({ promptFeedback: renderPromptFeedback(event.promptFeedback) }));
        return;
      case "part-start":
        this.kinds.set(keyOf(event), event.kind);
        return;
      case "text-delta":
        if (event.delta !== "") emit(this.textFrame(event.choice ?? 0, event.delta, ""));
        return;
      case "thinking-delta":
        if (event.delta !== "") {
          emit(this.textFrame(event.choice ?? 0, event.delta, ',"thought":true'));
        }
        return;
      case "signature-delta": {
        const call = this.calls.get(keyOf(event));
        if (call) {
          call.signature = (call.signature ?? "") + event.signature;
          return;
        }
        const part: NativePart =
          this.kinds.get(keyOf(event)) === "thinking"
            ? { text: "", thought: true, thoughtSignature: event.signature }
            : { text: "", thoughtSignature: event.signature };
        emit(this.parts(event, [part]));
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
        });
        return;
      case "tool-arguments-delta":
        this.calls.get(keyOf(event))?.args.push(event.delta);
        return;
      case "part-end": {
        const key = keyOf(event);
        this.kinds.delete(key);
        const call = this.calls.get(key);
        if (call) {
          this.calls.delete(key);
          emit(this.parts(event, [this.functionCall(call)]));
        }
        return;
      }
      case "finish":
        this.finish(event, emit);
        return;
      case "usage":
        emit(this.frame({ usageMetadata: renderNativeUsage(event.usage, this.options) }));
        return;
      case "error":
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
    for (const [key, call] of this.calls) {
      const [choice, index] = key.split(":").map(Number) as [number, number];
      emit(this.parts({ index, choice }, [this.functionCall(call)]));
    }
    this.calls.clear();
  }

  private finish(event: StreamEventOf<"finish">, emit: (message: SseMessage) => void): void {
    const choice = event.choice ?? 0;
    for (const [key, call] of this.calls) {
      const [c, index] = key.split(":").map(Number) as [number, number];
      if (c !== choice) continue;
      this.calls.delete(key);
      emit(this.parts({ index, choice }, [this.functionCall(call)]));
    }
    if (event.stopSequence !== undefined) {
      this.warnOnce(`${choice}:stop`, {
        feature: "stopSequence",
        message: "candidates do not name the stop sequence that ended them",
      });
    }
    // The upstream's last chunk of a candidate holds an empty text part beside the reason.
    const candidate: NativeCandidate = {
      content: { role: "model", parts: [{ text: "" }] },
      finishReason: renderNativeFinishReason(event.finishReason),
      index: choice,
    };
    if (event.safetyRatings !== undefined) {
      candidate.safetyRatings = event.safetyRatings.map(renderSafetyRating);
    }
    emit(this.frame({ candidates: [candidate] }));
  }

  private functionCall(call: PendingCall): NativePart {
    const text = call.args.join("");
    let args: Record<string, unknown> = {};
    if (text !== "") {
      try {
        const value: unknown = JSON.parse(text);
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
      candidates: [{ content: { role: "model", parts }, index: at.choice ?? 0 }],
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

  private frame(body: NativeResponseWire): SseMessage {
    if (this.model !== "") body.modelVersion = this.model;
    if (this.createTime !== undefined) body.createTime = this.createTime;
    if (this.id !== "") body.responseId = this.id;
    return { data: JSON.stringify(body) };
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
  const encoder = new NativeStreamEncoder(options);
  return new TransformStream<StreamEvent, SseMessage>({
    transform(event, controller) {
      encoder.push(event, (message) => controller.enqueue(message));
    },
    flush(controller) {
      encoder.end((message) => controller.enqueue(message));
    },
  });
}
