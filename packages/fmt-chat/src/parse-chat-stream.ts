import {
  COMPACT_FRAME_MAX_CHARS,
  JSON_INDEX_PATTERN,
  JSON_STRING_PATTERN,
  pushStream,
  type SseMessage,
  type StreamEvent,
  streamCutEvent,
  type Usage,
} from "@interlingua/core-types";
import { badGateway, type GatewayError, parseOpenAIError } from "@interlingua/errors";
import { parseChatLogprobs } from "./chat-logprobs.js";
import { SIGNED_PART_FORMAT } from "./chat-reasoning-details.js";
import { parseChatFinishReason } from "./map-chat-finish-reason.js";
import { parseChatAnnotations } from "./parse-chat-annotations.js";

type Emit = (event: StreamEvent) => void;
type Json = Record<string, unknown>;

interface ToolState {
  /** The tool call's part index in the choice's message. */
  index: number;
  /** Arguments so far, kept only while the call is open, to see when they form complete JSON. */
  args: string;
  sentArgs: boolean;
  open: boolean;
  id: string;
}

interface ChoiceState {
  /** The canonical `alternative`: undefined for choice 0, the primary output. */
  alternative: number | undefined;
  nextIndex: number;
  /** The open text or thinking part; chat streams one of each kind at a time. */
  open: { kind: "text" | "thinking"; index: number } | undefined;
  /** Tool calls by their wire `index`. */
  tools: Map<number, ToolState>;
  lastTool: number;
  refused: boolean;
  /** The open thinking part's text so far, to recognise a signed entry that repeats it. */
  thinking: string;
  /** The open part already has a signature: a second one starts a new part, as in Gemini. */
  signed: boolean;
  /** Tool-call signatures that arrived before their call. */
  pendingSignatures: Map<string, string> | undefined;
  /** UTF-16 length of the content so far, and where each text part starts in it: annotations index the whole content. */
  contentLength: number;
  texts: { index: number; start: number }[];
}

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;
const count = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;

/**
 * A content delta in the compact form and field order OpenAI writes, nearly every chunk of a
 * stream: read without parsing the whole chunk (only its text, a string literal). Once the stream
 * has started its other fields carry nothing (id, model and created are read from the first
 * chunk; usage is null). DeepSeek's deltas name both fields, the other one null: its reasoning
 * (group 3) and its answer (group 2) take the same path. Any other form takes the general path,
 * with the same result.
 */
const COMPACT_CONTENT = new RegExp(
  `^\\{"id":${JSON_STRING_PATTERN},"object":"chat\\.completion\\.chunk","created":(?:0|[1-9]\\d*)` +
    `,"model":${JSON_STRING_PATTERN}(?:,"service_tier":${JSON_STRING_PATTERN})?` +
    `(?:,"system_fingerprint":(?:${JSON_STRING_PATTERN}|null))?` +
    `,"choices":\\[\\{"index":(${JSON_INDEX_PATTERN}),"delta":\\{"content":` +
    `(?:(${JSON_STRING_PATTERN})(?:,"reasoning_content":null)?|null,"reasoning_content":(${JSON_STRING_PATTERN}))\\}` +
    `(?:,"logprobs":null)?,"finish_reason":null\\}\\](?:,"usage":null)?(?:,"obfuscation":${JSON_STRING_PATTERN})?\\}$`,
);

/**
 * Chat-completion chunks -> canonical stream events, one message at a time, never buffering.
 *
 * Chat has no part boundaries, so they are inferred: a text or thinking part opens at its first
 * non-empty fragment and closes when another part begins or the choice finishes. A tool call
 * opens at the first fragment of its wire `index` (id and name come only there) and closes as
 * soon as its arguments form complete JSON, or at finish, so calls whose fragments interleave
 * still accumulate correctly. Empty arguments become "{}". The usage chunk (`choices: []`) may
 * come after the finish chunk, or usage may ride on the finish chunk itself (DeepSeek, Groq);
 * either way it becomes a usage event. `delta.annotations` become citation events. `[DONE]` ends the stream. A stream that ends with neither
 * a `finish_reason`, `[DONE]` nor an error was cut: it ends with a 502 error event (stream-cut.ts).
 */
export class ChatStreamDecoder {
  private started = false;
  private done = false;
  /** A finish, `[DONE]` or an error was seen: the stream ended as the format ends one. */
  private ended = false;
  private readonly choices = new Map<number, ChoiceState>();

  push(message: SseMessage, emit: Emit): void {
    if (this.done) return;
    const data = message.data;
    if (data === "[DONE]") {
      this.done = true;
      this.ended = true;
      return;
    }
    if (this.started && message.event !== "error" && data.length <= COMPACT_FRAME_MAX_CHARS) {
      const compact = COMPACT_CONTENT.exec(data);
      if (compact !== null) {
        const state = this.state(Number(compact[1]));
        const answer = compact[2];
        const content: string = JSON.parse(answer ?? compact[3]!);
        if (content !== "")
          textLike(state, answer === undefined ? "thinking" : "text", content, emit);
        return;
      }
    }
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      this.ended = true;
      if (message.event === "error") emitError(parseOpenAIError(200, data), emit);
      else emitError(badGateway("Upstream sent a stream chunk that is not JSON"), emit);
      return;
    }
    if (!isObject(chunk)) {
      this.ended = true;
      emitError(badGateway("Upstream sent a stream chunk that is not a JSON object"), emit);
      return;
    }
    if (message.event === "error" || chunk.error !== undefined) {
      this.ended = true;
      emitError(parseOpenAIError(200, chunk), emit);
      return;
    }
    if (!this.started) {
      this.started = true;
      emit({
        type: "response-start",
        id: typeof chunk.id === "string" ? chunk.id : "",
        model: typeof chunk.model === "string" ? chunk.model : "",
        created: count(chunk.created) ?? 0,
      });
    }
    const choices = chunk.choices;
    if (Array.isArray(choices)) {
      for (const choice of choices) if (isObject(choice)) this.choice(choice, emit);
    }
    const usage = isObject(chunk.usage)
      ? chunk.usage
      : isObject(chunk.x_groq) && isObject(chunk.x_groq.usage)
        ? chunk.x_groq.usage
        : undefined;
    if (usage !== undefined) {
      const parsed = readUsage(usage, chunk.service_tier);
      if (parsed !== undefined) emit({ type: "usage", usage: parsed });
    }
  }

  /** End of input: parts still open are closed; a stream cut before its finish fails. */
  end(emit: Emit): void {
    for (const state of this.choices.values()) closeAll(state, emit);
    if (!this.ended) emit(streamCutEvent());
  }

  private state(index: number): ChoiceState {
    let state = this.choices.get(index);
    if (state === undefined) {
      state = {
        alternative: index === 0 ? undefined : index,
        nextIndex: 0,
        open: undefined,
        tools: new Map(),
        lastTool: 0,
        refused: false,
        thinking: "",
        signed: false,
        pendingSignatures: undefined,
        contentLength: 0,
        texts: [],
      };
      this.choices.set(index, state);
    }
    return state;
  }

  private choice(choice: Json, emit: Emit): void {
    const state = this.state(count(choice.index) ?? 0);
    const delta = choice.delta;
    if (isObject(delta)) {
      const reasoning = text(delta.reasoning_content) ?? text(delta.reasoning);
      if (reasoning !== undefined) textLike(state, "thinking", reasoning, emit);
      if (Array.isArray(delta.reasoning_details)) {
        for (const detail of delta.reasoning_details) {
          if (isObject(detail)) reasoningDetail(state, detail, reasoning !== undefined, emit);
        }
      }
      const content = text(delta.content);
      if (content !== undefined) textLike(state, "text", content, emit);
      const refusal = text(delta.refusal);
      if (refusal !== undefined) {
        state.refused = true;
        textLike(state, "text", refusal, emit);
      }
      if (Array.isArray(delta.tool_calls)) {
        for (const call of delta.tool_calls) if (isObject(call)) toolCall(state, call, emit);
      }
      if (Array.isArray(delta.annotations)) annotations(state, delta.annotations, emit);
    }
    // The chunk's tokens come with its delta: after the delta's events, before any finish.
    const logprobs = parseChatLogprobs(choice.logprobs);
    if (logprobs !== undefined) {
      emit(
        state.alternative === undefined
          ? { type: "logprobs", content: logprobs }
          : { type: "logprobs", alternative: state.alternative, content: logprobs },
      );
    }
    const finish = choice.finish_reason;
    if (typeof finish === "string") {
      this.ended = true;
      closeAll(state, emit);
      const finishReason = parseChatFinishReason(finish);
      if (state.refused) finishReason.unified = "content-filter";
      emit(
        state.alternative === undefined
          ? { type: "finish", finishReason }
          : { type: "finish", alternative: state.alternative, finishReason },
      );
    }
  }
}

function at(state: ChoiceState, index: number): { index: number; alternative?: number } {
  return state.alternative === undefined ? { index } : { index, alternative: state.alternative };
}

function openPart(state: ChoiceState, kind: "text" | "thinking", emit: Emit): number {
  let open = state.open;
  if (open?.kind !== kind) {
    closeOpen(state, emit);
    open = { kind, index: state.nextIndex++ };
    state.open = open;
    if (kind === "text") state.texts.push({ index: open.index, start: state.contentLength });
    state.thinking = "";
    state.signed = false;
    emit({ type: "part-start", ...at(state, open.index), kind });
  }
  return open.index;
}

function textLike(state: ChoiceState, kind: "text" | "thinking", delta: string, emit: Emit): void {
  // A signature ends its thinking block: thinking that follows is the next block.
  if (kind === "thinking" && state.open?.kind === "thinking" && state.signed)
    closeOpen(state, emit);
  const index = openPart(state, kind, emit);
  if (kind === "thinking") state.thinking += delta;
  else state.contentLength += delta.length;
  const type = kind === "text" ? "text-delta" : "thinking-delta";
  // Built whole, not spread from `at`: this runs on nearly every chunk.
  const alternative = state.alternative;
  emit(alternative === undefined ? { type, index, delta } : { type, index, alternative, delta });
}

/**
 * One `reasoning_details` entry (chat-reasoning-details.ts). Text already given by
 * `reasoning`/`reasoning_content` in the same delta (OpenRouter sends both) is not repeated, nor
 * is the text of a signed entry that repeats the open thinking part (this codec's encoder).
 */
function reasoningDetail(state: ChoiceState, detail: Json, hadText: boolean, emit: Emit): void {
  if (detail.type === "reasoning.text") {
    const fragment = text(detail.text);
    const signature = text(detail.signature);
    const repeats =
      signature !== undefined && state.open?.kind === "thinking" && state.thinking === fragment;
    if (fragment !== undefined && !hadText && !repeats) textLike(state, "thinking", fragment, emit);
    if (signature === undefined) return;
    if (state.open?.kind === "thinking" && state.signed) closeOpen(state, emit);
    const index = openPart(state, "thinking", emit);
    state.signed = true;
    emit({ type: "signature-delta", ...at(state, index), signature });
    return;
  }
  const data = text(detail.data);
  if (detail.type !== "reasoning.encrypted" || data === undefined) return;
  const id = text(detail.id);
  if (id !== undefined) {
    const tool = [...state.tools.values()].find((t) => t.id === id);
    if (tool === undefined) {
      state.pendingSignatures ??= new Map();
      state.pendingSignatures.set(id, data);
    } else {
      emit({ type: "signature-delta", ...at(state, tool.index), signature: data });
    }
    return;
  }
  if (detail.format === SIGNED_PART_FORMAT) {
    if (state.open?.kind === "text" && state.signed) closeOpen(state, emit);
    const index = openPart(state, "text", emit);
    state.signed = true;
    emit({ type: "signature-delta", ...at(state, index), signature: data });
    return;
  }
  closeOpen(state, emit);
  const index = state.nextIndex++;
  emit({ type: "redacted-thinking", ...at(state, index), data });
  emit({ type: "part-end", ...at(state, index) });
}

/**
 * `delta.annotations` (url_citation, as OpenAI's search models stream them) -> citation events on
 * the text part holding each citation's start, shifted from the whole content into that part. An
 * annotation before any text cites an empty text part opened for it.
 */
function annotations(state: ChoiceState, list: unknown[], emit: Emit): void {
  for (const citation of parseChatAnnotations(list)) {
    if (state.texts.length === 0) openPart(state, "text", emit);
    const start = citation.startIndex ?? 0;
    let part = state.texts[0] as { index: number; start: number };
    for (const t of state.texts) if (t.start <= start) part = t;
    if (citation.startIndex !== undefined) citation.startIndex -= part.start;
    if (citation.endIndex !== undefined)
      citation.endIndex = Math.max(0, citation.endIndex - part.start);
    emit({ type: "citation", ...at(state, part.index), citation });
  }
}

function toolCall(state: ChoiceState, call: Json, emit: Emit): void {
  const fn = isObject(call.function) ? call.function : undefined;
  const id = text(call.id);
  // Some compatible servers leave out `index` when each call arrives whole in one fragment.
  const key = count(call.index) ?? (id !== undefined ? state.tools.size : state.lastTool);
  state.lastTool = key;
  let tool = state.tools.get(key);
  if (tool === undefined) {
    closeOpen(state, emit);
    const callId = id ?? `call_${key}`;
    tool = { index: state.nextIndex++, args: "", sentArgs: false, open: true, id: callId };
    state.tools.set(key, tool);
    emit({
      type: "tool-call-start",
      ...at(state, tool.index),
      id: callId,
      name: typeof fn?.name === "string" ? fn.name : "",
    });
    const signature = state.pendingSignatures?.get(callId);
    if (signature !== undefined) {
      state.pendingSignatures?.delete(callId);
      emit({ type: "signature-delta", ...at(state, tool.index), signature });
    }
  }
  const args = text(fn?.arguments);
  if (args === undefined) return;
  // A fragment after the call closed still belongs to it: it is passed on, never lost.
  emit({ type: "tool-arguments-delta", ...at(state, tool.index), delta: args });
  tool.sentArgs = true;
  if (!tool.open) return;
  tool.args += args;
  if (endsObject(args) && isCompleteJson(tool.args)) closeTool(state, tool, emit);
}

function endsObject(fragment: string): boolean {
  for (let i = fragment.length - 1; i >= 0; i--) {
    const c = fragment.charCodeAt(i);
    if (c === 0x7d /* } */) return true;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false;
  }
  return false;
}

function isCompleteJson(value: string): boolean {
  try {
    JSON.parse(value);
    return true;
  } catch {
    return false;
  }
}

function closeOpen(state: ChoiceState, emit: Emit): void {
  if (state.open === undefined) return;
  emit({ type: "part-end", ...at(state, state.open.index) });
  state.open = undefined;
}

function closeTool(state: ChoiceState, tool: ToolState, emit: Emit): void {
  if (!tool.sentArgs) {
    // A call without arguments: canonical arguments are "{}", never "".
    emit({ type: "tool-arguments-delta", ...at(state, tool.index), delta: "{}" });
    tool.sentArgs = true;
  }
  tool.open = false;
  tool.args = "";
  emit({ type: "part-end", ...at(state, tool.index) });
}

function closeAll(state: ChoiceState, emit: Emit): void {
  closeOpen(state, emit);
  for (const tool of state.tools.values()) if (tool.open) closeTool(state, tool, emit);
}

function readUsage(usage: Json, serviceTier: unknown): Usage | undefined {
  const input = count(usage.prompt_tokens);
  const output = count(usage.completion_tokens);
  if (input === undefined || output === undefined) return undefined;
  const prompt = isObject(usage.prompt_tokens_details) ? usage.prompt_tokens_details : undefined;
  const completion = isObject(usage.completion_tokens_details)
    ? usage.completion_tokens_details
    : undefined;
  const out: Usage = {
    inputTokens: input,
    outputTokens: output,
    cachedInputTokens: count(prompt?.cached_tokens) ?? 0,
    cacheWriteTokens: count(prompt?.cache_write_tokens) ?? 0,
    thinkingTokens: count(completion?.reasoning_tokens) ?? 0,
  };
  if (typeof serviceTier === "string") out.serviceTier = serviceTier;
  return out;
}

function emitError(error: GatewayError, emit: Emit): void {
  emit({
    type: "error",
    error:
      error.code === undefined
        ? { status: error.status, type: error.type, message: error.message }
        : { status: error.status, type: error.type, message: error.message, code: error.code },
  });
}

/** The codec's `stream.decode()`: chat SSE messages in, canonical events out. */
export function decodeChatStream(): TransformStream<SseMessage, StreamEvent> {
  return pushStream(new ChatStreamDecoder());
}

/** Decodes a whole recorded stream at once (tests, replays, benchmarks). */
export function decodeChatMessages(messages: Iterable<SseMessage>): StreamEvent[] {
  const decoder = new ChatStreamDecoder();
  const events: StreamEvent[] = [];
  const emit = (event: StreamEvent) => events.push(event);
  for (const message of messages) decoder.push(message, emit);
  decoder.end(emit);
  return events;
}
