import { pushStream } from "@interlingua/core-types/push-stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cuts, sseFrames } from "../test/arbitraries.js";
import { recordings } from "../test/recordings.js";
import { concatBytes, fromUtf8, utf8 } from "../test/streams.js";
import {
  decodeSse,
  encodeSse,
  encodeSseEvent,
  type PushTransformer,
  type SseEvent,
  type SseFrame,
  translateSse,
} from "./index.js";
import { frameRecording, readAll, readableOf, splitBytes } from "./testing.js";

/** Passes events through, and writes one closing frame at the end to exercise `end`. */
const identity = (closing?: SseEvent): PushTransformer<SseEvent, SseEvent> => ({
  push: (event, emit) => emit(event),
  end: (emit) => {
    if (closing !== undefined) emit(closing);
  },
});

const pushStage = (stage: PushTransformer<SseEvent, SseEvent>) =>
  new TransformStream<SseEvent, SseEvent>({
    transform: (event, controller) => stage.push(event, (e) => controller.enqueue(e)),
    flush: (controller) => stage.end((e) => controller.enqueue(e)),
  });

const chained = async (chunks: Uint8Array[]) =>
  concatBytes(
    await readAll(
      readableOf(chunks)
        .pipeThrough(decodeSse())
        .pipeThrough(pushStage(identity()))
        .pipeThrough(pushStage(identity({ event: "end", data: "bye" })))
        .pipeThrough(encodeSse()),
    ),
  );

const fused = (chunks: Uint8Array[]) =>
  readAll(
    readableOf(chunks).pipeThrough(
      translateSse(identity(), identity({ event: "end", data: "bye" })),
    ),
  );

const events = (frames: readonly SseFrame[]) =>
  frames.filter((f): f is SseEvent => !("comment" in f));

describe("translateSse", () => {
  it.each(recordings().map((r) => [r.name, r] as const))(
    "is byte-identical to the chained streams for %s",
    async (_name, { lines, protocol }) => {
      const wire = utf8.encode(frameRecording(lines, protocol));
      expect(concatBytes(await fused([wire]))).toEqual(await chained([wire]));
    },
  );

  it("gives the same bytes however the input is split", async () => {
    await fc.assert(
      fc.asyncProperty(sseFrames, cuts, async (frames, at) => {
        const wire = utf8.encode(frames.map((f) => encodeSseEvent(f)).join(""));
        const whole = concatBytes(await fused([wire]));
        expect(concatBytes(await fused(splitBytes(wire, at)))).toEqual(whole);
        expect(whole).toEqual(await chained(splitBytes(wire, at)));
        const expected =
          events(frames)
            .map((e) => encodeSseEvent(e))
            .join("") + encodeSseEvent({ event: "end", data: "bye" });
        expect(fromUtf8(whole)).toBe(expected);
      }),
    );
  });

  it("enqueues at most one chunk per input chunk, as it arrives", async () => {
    const a = utf8.encode("data: 1\n\ndata: 2\n\n");
    const b = utf8.encode(": only a comment\n\n");
    const c = utf8.encode("data: 3\n\n");
    const comments: string[] = [];
    const out = await readAll(
      readableOf([a, b, c]).pipeThrough(
        translateSse(identity(), identity(), { onComment: (x) => comments.push(x) }),
      ),
    );
    expect(out.map(fromUtf8)).toEqual(["data: 1\n\ndata: 2\n\n", "data: 3\n\n"]);
    expect(comments).toEqual(["only a comment"]);
  });

  it("errors the stream when a stage throws", async () => {
    const failing: PushTransformer<SseEvent, SseEvent> = {
      push: () => {
        throw new Error("boom");
      },
      end: () => {},
    };
    await expect(
      readAll(
        readableOf([utf8.encode("data: x\n\n")]).pipeThrough(translateSse(failing, identity())),
      ),
    ).rejects.toThrow("boom");
  });

  it("writes CRLF frames when asked", async () => {
    const out = await readAll(
      readableOf(["data: x\n\n"]).pipeThrough(
        translateSse(identity(), identity(), { lineEnding: "\r\n" }),
      ),
    );
    expect(out.map(fromUtf8)).toEqual(["data: x\r\n\r\n"]);
  });

  it("fuses with a push stream piped after it: the stage runs inside the write", async () => {
    const seen: string[] = [];
    const tap = pushStream<Uint8Array, Uint8Array>({
      push(chunk, emit) {
        seen.push(fromUtf8(chunk));
        emit(chunk);
      },
      end() {},
    });
    const translate = translateSse(identity(), identity());
    const out = translate.readable.pipeThrough(tap);
    const writer = translate.writable.getWriter();
    await writer.ready;
    const written = writer.write(utf8.encode("data: x\n\n"));
    // A pipe would hand the chunk on only after some microtasks.
    expect(seen).toEqual(["data: x\n\n"]);
    const reader = out.getReader();
    expect(fromUtf8((await reader.read()).value!)).toBe("data: x\n\n");
    // The write settles once the reader asks for more, as a pipe's backpressure has it.
    const next = reader.read();
    await written;
    await writer.close();
    expect((await next).done).toBe(true);
  });
});
