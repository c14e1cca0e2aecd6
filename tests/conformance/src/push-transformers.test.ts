import type { PushTransformer, SseMessage, StreamEvent } from "@interlingua/core-types";
import * as canonical from "@interlingua/core-types/testing";
import { fc } from "@interlingua/core-types/testing";

import { describe, expect, it } from "vitest";
import { codecNames, codecs } from "./codecs.js";

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

// One check for every codec: the synchronous push transformers behave exactly like the streams.
describe.each(codecNames)("%s.stream.decoder() and encoder()", (name) => {
  const codec = codecs[name]!;
  it("encode like encode() and decode like decode()", async () => {
    await fc.assert(
      fc.asyncProperty(canonical.streamEvents(), fc.boolean(), async (events, includeUsage) => {
        const options = { providerExtras: { openai: { includeUsage } } };
        const pushed = viaPush<StreamEvent, SseMessage>(codec.stream.encoder(options), events);
        const streamed = await viaStream(codec.stream.encode(options), events);
        expect(pushed).toEqual(streamed);
        if (!pushed.ok) return;
        const decoded = viaPush<SseMessage, StreamEvent>(codec.stream.decoder(), pushed.value);
        expect(decoded).toEqual(await viaStream(codec.stream.decode(), pushed.value));
      }),
      { numRuns: 60 },
    );
  });

  it("decode malformed frames alike", async () => {
    const frames: SseMessage[] = [{ data: "{not json" }, { data: "[DONE]" }, { data: "" }];
    expect(viaPush(codec.stream.decoder(), frames)).toEqual(
      await viaStream(codec.stream.decode(), frames),
    );
  });
});
