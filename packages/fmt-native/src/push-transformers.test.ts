import type { PushTransformer, SseMessage, StreamEvent } from "@interlingua/core-types";
import * as canonical from "@interlingua/core-types/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { native } from "./native-codec.js";

type Outcome<T> = { ok: true; value: T[] } | { ok: false; error: string };

function viaPush<I, O>(stage: PushTransformer<I, O>, inputs: readonly I[]): Outcome<O> {
  const value: O[] = [];
  const emit = (o: O) => value.push(o);
  try {
    for (const input of inputs) stage.push(input, emit);
    stage.end(emit);
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: String(error) };
  }
}

async function viaStream<I, O>(
  stream: TransformStream<I, O>,
  inputs: readonly I[],
): Promise<Outcome<O>> {
  const value: O[] = [];
  try {
    const readable = new ReadableStream<I>({
      start(controller) {
        for (const input of inputs) controller.enqueue(input);
        controller.close();
      },
    }).pipeThrough(stream);
    for await (const o of readable) value.push(o);
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: String(error) };
  }
}

describe("native.stream.decoder() and encoder()", () => {
  it("encode like encode() and decode like decode()", async () => {
    await fc.assert(
      fc.asyncProperty(canonical.streamEvents(), fc.boolean(), async (events, includeUsage) => {
        const options = { includeUsage };
        const pushed = viaPush<StreamEvent, SseMessage>(native.stream.encoder(options), events);
        const streamed = await viaStream(native.stream.encode(options), events);
        expect(pushed).toEqual(streamed);
        if (!pushed.ok) return;
        const decoded = viaPush<SseMessage, StreamEvent>(native.stream.decoder(), pushed.value);
        expect(decoded).toEqual(await viaStream(native.stream.decode(), pushed.value));
      }),
      { numRuns: 60 },
    );
  });

  it("decode malformed frames alike", async () => {
    const frames: SseMessage[] = [{ data: "{not json" }, { data: "[DONE]" }, { data: "" }];
    expect(viaPush(native.stream.decoder(), frames)).toEqual(
      await viaStream(native.stream.decode(), frames),
    );
  });
});
