import {
  type Citation,
  movedThinkingSignature,
  parseWireJson,
  pushStream,
  type SafetyRating,
  type SseMessage,
  type StreamEvent,
  streamCutEvent,
  stringifyJsonKeepingNumbers,
  type Usage,
} from "@interlingua/core-types";
import { blockedFinishReason } from "./blocked-prompt.js";
import { parseNativeFinishReason } from "./map-native-finish-reason.js";
import { parseNativeUsage } from "./map-native-usage.js";
import {
  type NativePartialArg,
  type NativeUsageMetadata,
  nativePromptFeedbackSchema,
  nativeSafetyRatingSchema,
} from "./native-api.js";
import { codeExecutionText } from "./native-code-execution.js";
import { applyGrounding, nativeGroundingMetadataSchema } from "./native-grounding.js";
import { parseNativeLogprobs } from "./native-logprobs.js";
import { generatedCallId } from "./native-tool-call-ids.js";
import { parseGeminiError } from "./parse-gemini-error.js";
import {
  createdFromCreateTime,
  parsePromptFeedback,
  parseSafetyRating,
} from "./parse-native-response.js";
import { PartialArgsJsonWriter } from "./partial-args-json-writer.js";

type Json = Record<string, unknown>;
type Emit = (event: StreamEvent) => void;

const isRecord = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

interface OpenPart {
  index: number;
  kind: "text" | "thinking" | "tool";
  /** A part holds one signature; the next signed fragment starts a new part. */
  signed: boolean;
  /** Set while a call's arguments are still streaming (partialArgs / willContinue). */
  writer?: PartialArgsJsonWriter;
}

interface CandidateState {
  nextIndex: number;
  open: OpenPart | undefined;
  calls: number;
  hasToolCalls: boolean;
  safetyRatings: SafetyRating[] | undefined;
  /** The latest thinking part, where a moved thinking signature goes back. */
  lastThinking: number | undefined;
  /**
   * The answer's visible text so far and where each text part starts in it: a stream's grounding
   * segments index the whole answer (in UTF-8 bytes), not one chunk's parts.
   */
  answer: string;
  textStarts: { index: number; start: number }[];
  /** Citations already emitted (grounding may be repeated on later chunks). */
  cited: Set<string>;
}

const tokenFields = [
  "promptTokenCount",
  "candidatesTokenCount",
  "totalTokenCount",
  "thoughtsTokenCount",
  "cachedContentTokenCount",
] as const;

/**
 * usageMetadata read leniently: a count that is not a non-negative integer does not fail the
 * stream, but makes the usage unknown (undefined, parsed as `known: false`), since the reply's
 * real usage cannot be told and zero would read as free.
 */
function readUsageMetadata(raw: Json): NativeUsageMetadata | undefined {
  const out: NativeUsageMetadata = {};
  for (const field of tokenFields) {
    const value = raw[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) return undefined;
    out[field] = value;
  }
  if (Array.isArray(raw.promptTokensDetails)) {
    out.promptTokensDetails = raw.promptTokensDetails
      .filter(isRecord)
      .flatMap((d) =>
        typeof d.modality === "string"
          ? [
              typeof d.tokenCount === "number"
                ? { modality: d.modality, tokenCount: d.tokenCount }
                : { modality: d.modality },
            ]
          : [],
      );
  }
  if (typeof raw.serviceTier === "string") out.serviceTier = raw.serviceTier;
  return out;
}

function sameUsage(a: Usage | undefined, b: Usage): boolean {
  if (a === undefined) return false;
  return (
    a.inputTokens === b.inputTokens &&
    a.outputTokens === b.outputTokens &&
    a.cachedInputTokens === b.cachedInputTokens &&
    a.thinkingTokens === b.thinkingTokens &&
    a.serviceTier === b.serviceTier &&
    JSON.stringify(a.providerExtras) === JSON.stringify(b.providerExtras)
  );
}

function readPartialArgs(raw: unknown): NativePartialArg[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  return raw.filter((a): a is NativePartialArg => isRecord(a) && typeof a.jsonPath === "string");
}

/**
 * Gemini stream chunks (each SSE `data:` a whole GenerateContentResponse) -> canonical events, one
 * chunk at a time, nothing held back:
 * - consecutive text fragments of one kind (thought or not) continue one part until that part has
 *   received a thoughtSignature; a change of kind, a function call or a second signature starts
 *   a new part. A signature may ride on an empty text part: it is never dropped. An empty text
 *   part without a signature carries nothing and opens nothing;
 * - whole function calls become tool-call-start, one arguments delta and part-end; streamed ones
 *   (`willContinue`, `partialArgs`) become a delta per fragment of the JSON arguments text, and
 *   end at the fragment without `willContinue`;
 * - usageMetadata may ride on every chunk: a usage event is emitted whenever it changes (usage
 *   events are cumulative, so the last one wins);
 * - an `{error}` chunk becomes an error event.
 */
export class NativeStreamDecoder {
  private started = false;
  private responseId = "";
  private usage: Usage | undefined;
  private feedback = "";
  /** A blocked prompt's reason, to finish a stream that brings no candidate (blocked-prompt.ts). */
  private blockReason: string | undefined;
  private sawCandidate = false;
  private failed = false;
  /** A candidate's finishReason was seen: the stream ended as Gemini ends one. */
  private finished = false;
  private readonly candidates = new Map<number, CandidateState>();

  push(message: SseMessage, emit: Emit): void {
    const data = message.data;
    if (data === "" || data === "[DONE]") return;
    let chunk: unknown;
    try {
      chunk = parseWireJson(data);
    } catch {
      this.failed = true;
      emit(this.errorEvent(502, { error: { code: 502, message: "a stream frame was not JSON" } }));
      return;
    }
    if (Array.isArray(chunk) && chunk.length === 1) chunk = chunk[0];
    if (!isRecord(chunk)) {
      this.failed = true;
      emit(
        this.errorEvent(502, { error: { code: 502, message: "a stream frame was not an object" } }),
      );
      return;
    }
    if (chunk.error !== undefined) {
      this.failed = true;
      emit(this.errorEvent(200, chunk));
      return;
    }
    if (!this.started) {
      this.started = true;
      this.responseId = typeof chunk.responseId === "string" ? chunk.responseId : "";
      emit({
        type: "response-start",
        id: this.responseId,
        model: typeof chunk.modelVersion === "string" ? chunk.modelVersion : "",
        created: createdFromCreateTime(chunk.createTime),
      });
    }
    if (chunk.promptFeedback !== undefined) this.promptFeedback(chunk.promptFeedback, emit);
    // Usage before the chunk's content: the first chunk's prompt count reaches the client's
    // start frame (a messages client's message_start) instead of waiting for the end.
    if (isRecord(chunk.usageMetadata)) {
      const usage = parseNativeUsage(readUsageMetadata(chunk.usageMetadata));
      if (!sameUsage(this.usage, usage)) {
        this.usage = usage;
        emit({ type: "usage", usage });
      }
    }
    if (Array.isArray(chunk.candidates)) {
      if (chunk.candidates.length > 0) this.sawCandidate = true;
      chunk.candidates.forEach((candidate, position) => {
        if (isRecord(candidate)) this.candidate(candidate, position, emit);
      });
    }
  }

  /**
   * Closes the parts still open when the stream ends. A stream that ends with no finishReason,
   * no blocked prompt and no error was cut: it ends with a 502 error event (stream-cut.ts).
   */
  end(emit: Emit): void {
    for (const [choice, state] of this.candidates) this.closePart(state, choice, emit);
    if (this.failed || this.finished) return;
    if (this.blockReason !== undefined && !this.sawCandidate) {
      emit({ type: "finish", finishReason: blockedFinishReason(this.blockReason) });
      return;
    }
    emit(streamCutEvent());
  }

  private errorEvent(status: number, body: unknown): StreamEvent {
    const error = parseGeminiError(status, body);
    const event: StreamEvent = {
      type: "error",
      error: { status: error.status, type: error.type, message: error.message },
    };
    if (error.code !== undefined) event.error.code = error.code;
    return event;
  }

  private promptFeedback(raw: unknown, emit: Emit): void {
    const parsed = nativePromptFeedbackSchema.safeParse(raw);
    if (!parsed.success) return;
    const key = JSON.stringify(parsed.data);
    if (key === this.feedback) return;
    this.feedback = key;
    if (parsed.data.blockReason !== undefined) this.blockReason = parsed.data.blockReason;
    emit({
      type: "provider-extras",
      providerExtras: { gemini: { promptFeedback: parsePromptFeedback(parsed.data) } },
    });
  }

  private state(choice: number): CandidateState {
    let state = this.candidates.get(choice);
    if (!state) {
      state = {
        nextIndex: 0,
        open: undefined,
        calls: 0,
        hasToolCalls: false,
        safetyRatings: undefined,
        lastThinking: undefined,
        answer: "",
        textStarts: [],
        cited: new Set(),
      };
      this.candidates.set(choice, state);
    }
    return state;
  }

  private candidate(candidate: Json, position: number, emit: Emit): void {
    const choice =
      typeof candidate.index === "number" &&
      Number.isInteger(candidate.index) &&
      candidate.index >= 0
        ? candidate.index
        : position;
    const state = this.state(choice);
    const content = candidate.content;
    if (isRecord(content) && Array.isArray(content.parts)) {
      for (const part of content.parts) {
        if (isRecord(part)) this.part(part, state, choice, emit);
      }
    }
    if (Array.isArray(candidate.safetyRatings)) {
      const ratings: SafetyRating[] = [];
      for (const raw of candidate.safetyRatings) {
        const rating = nativeSafetyRatingSchema.safeParse(raw);
        if (rating.success) ratings.push(parseSafetyRating(rating.data));
      }
      state.safetyRatings = ratings;
    }
    if (candidate.groundingMetadata !== undefined) {
      this.grounding(candidate.groundingMetadata, state, choice, emit);
    }
    const logprobs = parseNativeLogprobs(
      candidate.logprobsResult,
      typeof candidate.avgLogprobs === "number" ? candidate.avgLogprobs : undefined,
    );
    if (logprobs !== undefined) {
      emit(
        choice > 0
          ? { type: "logprobs", alternative: choice, ...logprobs }
          : { type: "logprobs", ...logprobs },
      );
    }
    if (typeof candidate.finishReason === "string") {
      this.finished = true;
      this.closePart(state, choice, emit);
      const finish: StreamEvent = {
        type: "finish",
        finishReason: parseNativeFinishReason(
          candidate.finishReason,
          state.hasToolCalls,
          typeof candidate.finishMessage === "string" ? candidate.finishMessage : undefined,
        ),
      };
      if (choice > 0) finish.alternative = choice;
      if (state.safetyRatings !== undefined) {
        finish.providerExtras = { gemini: { safetyRatings: state.safetyRatings } };
      }
      emit(finish);
    }
  }

  private part(part: Json, state: CandidateState, choice: number, emit: Emit): void {
    let signature = typeof part.thoughtSignature === "string" ? part.thoughtSignature : undefined;
    // A thinking signature this codec's encoder moved onto a call or text goes back on the
    // thinking part it belongs to (core-types moved-signature.ts).
    const moved = movedThinkingSignature(signature);
    if (moved !== undefined && state.lastThinking !== undefined) {
      emit(at({ type: "signature-delta", index: state.lastThinking, signature: moved }, choice));
      signature = undefined;
    }
    if (isRecord(part.functionCall)) {
      this.functionCall(part.functionCall, signature, state, choice, emit);
      return;
    }
    // Code execution is carried as fenced text, as in the whole reply (native-code-execution.ts).
    const code = codeExecutionText(part);
    const isText = typeof part.text === "string" || code !== undefined;
    if (!isText && (part.inlineData !== undefined || part.fileData !== undefined)) {
      // Media has no stream event; it still takes its part index, as in the whole response.
      this.closePart(state, choice, emit);
      state.nextIndex++;
      return;
    }
    if (!isText && signature === undefined) return;
    const text = code ?? (isText ? (part.text as string) : "");
    if (text === "" && signature === undefined) return;
    const kind = part.thought === true ? "thinking" : "text";
    let open = state.open;
    if (
      open === undefined ||
      open.kind !== kind ||
      (open.signed && (signature !== undefined || text !== ""))
    ) {
      this.closePart(state, choice, emit);
      open = { index: state.nextIndex++, kind, signed: false };
      state.open = open;
      if (kind === "thinking") state.lastThinking = open.index;
      else state.textStarts.push({ index: open.index, start: state.answer.length });
      emit(at({ type: "part-start", index: open.index, kind }, choice));
    }
    if (kind === "text") state.answer += text;
    if (text !== "") {
      emit(
        at(
          kind === "text"
            ? { type: "text-delta", index: open.index, delta: text }
            : { type: "thinking-delta", index: open.index, delta: text },
          choice,
        ),
      );
    }
    if (signature !== undefined) {
      open.signed = true;
      emit(at({ type: "signature-delta", index: open.index, signature }, choice));
    }
  }

  /**
   * groundingMetadata -> citation events. Segments index the whole answer so far; each citation
   * goes to the text part its start falls in, shifted into that part (clamped to it). Sources no
   * support names cite the first text part whole; with no text at all, an empty text part holds
   * them. A citation already emitted is not repeated.
   */
  private grounding(raw: unknown, state: CandidateState, choice: number, emit: Emit): void {
    const parsed = nativeGroundingMetadataSchema.safeParse(raw);
    if (!parsed.success) return;
    const supports = parsed.data.groundingSupports?.map((s) => ({
      ...s,
      segment: { ...s.segment, partIndex: 0 },
    }));
    const whole = { type: "text" as const, text: state.answer };
    applyGrounding(
      { ...parsed.data, groundingSupports: supports },
      new Map([[0, whole]]),
      "",
      undefined,
    );
    const citations = (whole as { citations?: Citation[] }).citations ?? [];
    if (citations.length === 0) return;
    let host: number | undefined;
    if (state.textStarts.length === 0) {
      this.closePart(state, choice, emit);
      host = state.nextIndex++;
      state.textStarts.push({ index: host, start: 0 });
      emit(at({ type: "part-start", index: host, kind: "text" }, choice));
    }
    for (const citation of citations) {
      const key = JSON.stringify(citation);
      if (state.cited.has(key)) continue;
      state.cited.add(key);
      const begin = citation.startIndex ?? 0;
      let k = 0;
      state.textStarts.forEach((t, j) => {
        if (t.start <= begin) k = j;
      });
      const part = state.textStarts[k] as { index: number; start: number };
      const end = state.textStarts[k + 1]?.start ?? state.answer.length;
      if (citation.startIndex !== undefined) citation.startIndex -= part.start;
      if (citation.endIndex !== undefined) {
        citation.endIndex = Math.min(citation.endIndex, end) - part.start;
      }
      emit(at({ type: "citation", index: part.index, citation }, choice));
    }
    if (host !== undefined) emit(at({ type: "part-end", index: host }, choice));
  }

  private functionCall(
    call: Json,
    signature: string | undefined,
    state: CandidateState,
    choice: number,
    emit: Emit,
  ): void {
    const name = typeof call.name === "string" && call.name !== "" ? call.name : undefined;
    const partialArgs = readPartialArgs(call.partialArgs);
    const willContinue = call.willContinue === true;
    const args = isRecord(call.args) ? call.args : undefined;
    const open = state.open;
    if (name === undefined) {
      // A fragment of the call being streamed; a bare one without an open call carries nothing.
      if (open?.writer === undefined) return;
      this.arguments(open, partialArgs, args, choice, emit);
      if (signature !== undefined) {
        open.signed = true;
        emit(at({ type: "signature-delta", index: open.index, signature }, choice));
      }
      if (!willContinue) this.closePart(state, choice, emit);
      return;
    }
    this.closePart(state, choice, emit);
    const id =
      typeof call.id === "string"
        ? call.id
        : generatedCallId(this.responseId, choice, state.calls++);
    const index = state.nextIndex++;
    state.hasToolCalls = true;
    emit(at({ type: "tool-call-start", index, id, name }, choice));
    if (signature !== undefined) emit(at({ type: "signature-delta", index, signature }, choice));
    if (willContinue || partialArgs !== undefined) {
      const part: OpenPart = {
        index,
        kind: "tool",
        signed: signature !== undefined,
        writer: new PartialArgsJsonWriter(),
      };
      state.open = part;
      this.arguments(part, partialArgs, args, choice, emit);
      if (!willContinue) this.closePart(state, choice, emit);
      return;
    }
    emit(
      at(
        { type: "tool-arguments-delta", index, delta: stringifyJsonKeepingNumbers(args ?? {}) },
        choice,
      ),
    );
    emit(at({ type: "part-end", index }, choice));
  }

  private arguments(
    part: OpenPart,
    partialArgs: NativePartialArg[] | undefined,
    args: Json | undefined,
    choice: number,
    emit: Emit,
  ): void {
    const writer = part.writer as PartialArgsJsonWriter;
    let delta = "";
    if (partialArgs !== undefined) for (const arg of partialArgs) delta += writer.push(arg);
    if (args !== undefined) delta += writer.whole(args);
    if (delta !== "") emit(at({ type: "tool-arguments-delta", index: part.index, delta }, choice));
  }

  private closePart(state: CandidateState, choice: number, emit: Emit): void {
    const open = state.open;
    if (open === undefined) return;
    state.open = undefined;
    if (open.writer !== undefined) {
      const rest = open.writer.finish();
      if (rest !== "")
        emit(at({ type: "tool-arguments-delta", index: open.index, delta: rest }, choice));
    }
    emit(at({ type: "part-end", index: open.index }, choice));
  }
}

/** Events of choice 0 omit `choice`. */
function at<E extends StreamEvent & { index: number }>(event: E, choice: number): E {
  if (choice > 0) (event as E & { alternative?: number }).alternative = choice;
  return event;
}

/** `streamGenerateContent?alt=sse` frames -> canonical stream events. */
export function decodeNativeStream(): TransformStream<SseMessage, StreamEvent> {
  return pushStream(new NativeStreamDecoder());
}
