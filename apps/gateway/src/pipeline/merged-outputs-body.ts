import { Readable } from "node:stream";
import {
  OutputsMerger,
  type PushTransformer,
  type SseMessage,
  type StreamEvent,
} from "@interlingua/core-types";
import { createSseTranslator, type SseTranslator } from "@interlingua/sse";
import { MAX_FRAME_CHARS } from "../stream/sse-tap.ts";
import { discardBody } from "../upstream/discard-body.ts";
import type { StartedUpstreamBody } from "../upstream/read-first-chunk.ts";

/**
 * The merged body's own wire: canonical events as JSON in SSE frames (no provider's wire holds
 * another provider's outputs whole). `decodeMergedOutputs` reads it back.
 */
const messageOf = (event: StreamEvent): SseMessage => ({ data: JSON.stringify(event) });
// An SSE comment: the relay needs first bytes, and the calls' first chunks may complete no event.
const OPENING = ": outputs\n\n";

/** The decoder of a merged body (its events were checked when each call's codec decoded them). */
export function decodeMergedOutputs(): PushTransformer<SseMessage, StreamEvent> {
  return {
    push: (message, emit) => emit(JSON.parse(message.data) as StreamEvent),
    end: () => {},
  };
}

/**
 * Several upstream streams of one output each (one call per output: chat `n` toward a provider
 * without it) as one body whose events are those of alternatives 0, 1, ... (core-types
 * `OutputsMerger`), in the order they arrive. Each call's bytes are decoded by its own codec as
 * they come; the merged body pauses every call while the relay is full, fails when one call
 * fails, ends once every call ended, and cancels them all when it is destroyed.
 */
export function mergedOutputsBody(calls: readonly OutputCall[]): StartedUpstreamBody {
  const merged = new MergedOutputs(calls);
  return { first: Buffer.from(merged.start(calls) || OPENING, "utf8"), rest: merged };
}

/** One call's started stream and the decoder of its channel's protocol. */
export interface OutputCall {
  readonly body: StartedUpstreamBody;
  readonly decoder: () => PushTransformer<SseMessage, StreamEvent>;
}

class MergedOutputs extends Readable {
  private readonly sources: readonly Readable[];
  private readonly translators: readonly SseTranslator<StreamEvent>[];
  private readonly merger: OutputsMerger;
  private open: number;
  private finished = false;

  constructor(calls: readonly OutputCall[]) {
    super();
    this.merger = new OutputsMerger(calls.length);
    this.sources = calls.map((call) => call.body.rest);
    this.open = calls.length;
    this.translators = calls.map((call, stream) => {
      const encoder: PushTransformer<StreamEvent, SseMessage> = {
        push: (event, emit) => this.merger.push(stream, event, (e) => emit(messageOf(e))),
        end: (emit) => this.merger.end(stream, (e) => emit(messageOf(e))),
      };
      return createSseTranslator(call.decoder(), encoder, { maxBufferSize: MAX_FRAME_CHARS });
    });
  }

  /**
   * The merged text of every call's first chunk (read before the relay started), and of the calls
   * that already ended while the others were awaited; the rest follows as the calls go on.
   */
  start(calls: readonly OutputCall[]): string {
    let text = "";
    calls.forEach((call, stream) => {
      const source = call.body.rest;
      const translator = this.translators[stream];
      if (translator === undefined) return;
      text += translator.push(call.body.first);
      if (source.errored) {
        this.destroy(source.errored);
        return;
      }
      if (source.readableEnded) {
        text += translator.end();
        this.open -= 1;
        return;
      }
      source.on("data", (chunk: Uint8Array) => this.forward(translator.push(chunk)));
      source.once("end", () => {
        this.forward(translator.end());
        this.open -= 1;
        if (this.open === 0) this.finish();
      });
      source.once("error", (error) => this.destroy(error));
    });
    if (this.open === 0) this.finish();
    return text;
  }

  override _read(): void {
    for (const source of this.sources) if (!source.readableEnded) source.resume();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    for (const source of this.sources) discardBody(source);
    done(error);
  }

  private forward(text: string | undefined): void {
    if (this.destroyed || this.finished) return;
    if (text !== undefined && text !== "" && !this.push(text)) {
      for (const source of this.sources) source.pause();
    }
    // An error event ended the merged stream: the other calls are of no further use.
    if (this.merger.failed) {
      for (const source of this.sources) discardBody(source);
      this.finish();
    }
  }

  private finish(): void {
    if (this.finished || this.destroyed) return;
    this.finished = true;
    this.push(null);
  }
}
