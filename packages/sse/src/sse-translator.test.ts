import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cuts, sseFrames } from "../test/arbitraries.js";
import { utf8 } from "../test/streams.js";
import {
  createSseTranslator,
  encodeSseEvent,
  type PushTransformer,
  type SseEvent,
} from "./index.js";
import { splitBytes } from "./testing.js";

const identity: PushTransformer<SseEvent, SseEvent> = {
  push: (event, emit) => emit(event),
  end: () => {},
};

/** Numbers each event's data and writes a closing frame with the count at the end. */
const counting = (): PushTransformer<SseEvent, SseEvent> => {
  let n = 0;
  return {
    push: (event, emit) => emit({ data: `${n++}:${event.data}` }),
    end: (emit) => emit({ event: "end", data: String(n) }),
  };
};

describe("createSseTranslator", () => {
  it('returns each chunk\'s completed frames at once, and "" for a chunk that completes none', () => {
    const t = createSseTranslator(identity, counting());
    expect(t.push(utf8.encode("data: a\n\ndata: "))).toBe("data: 0:a\n\n");
    expect(t.push(utf8.encode("b"))).toBe("");
    expect(t.push("\n\n")).toBe("data: 1:b\n\n");
    expect(t.end()).toBe("event: end\ndata: 2\n\n");
  });

  it("joins a multi-byte character split across chunks", () => {
    const bytes = utf8.encode("data: é€😀\n\n");
    const t = createSseTranslator(identity, identity);
    const out = [...bytes].map((b) => t.push(Uint8Array.of(b))).join("") + t.end();
    expect(out).toBe("data: é€😀\n\n");
  });

  it("gives the same text however the input is split", () => {
    fc.assert(
      fc.property(sseFrames, cuts, (frames, at) => {
        const wire = utf8.encode(frames.map((f) => encodeSseEvent(f)).join(""));
        const run = (chunks: Uint8Array[]) => {
          const t = createSseTranslator(identity, counting());
          return chunks.map((c) => t.push(c)).join("") + t.end();
        };
        expect(run(splitBytes(wire, at))).toBe(run([wire]));
      }),
    );
  });

  it("taps every value between the stages, in order", () => {
    const seen: string[] = [];
    const t = createSseTranslator(identity, identity, { tap: (e) => seen.push(e.data) });
    t.push("data: 1\n\n: note\n\ndata: 2\n\n");
    t.end();
    expect(seen).toEqual(["1", "2"]);
  });

  it("writes frames with the given framing", () => {
    const t = createSseTranslator(identity, identity, { frame: (e) => `[${e.data}]` });
    expect(t.push("data: 1\n\ndata: 2\n\n")).toBe("[1][2]");
  });

  it("abort sends the last value through the encoder, ends it, and skips the decoder's end", () => {
    let decoderEnded = false;
    const decoder: PushTransformer<SseEvent, SseEvent> = {
      push: (event, emit) => emit(event),
      end: () => {
        decoderEnded = true;
      },
    };
    const seen: string[] = [];
    const t = createSseTranslator(decoder, counting(), { tap: (e) => seen.push(e.data) });
    expect(t.push("data: x\n\ndata: half")).toBe("data: 0:x\n\n");
    expect(t.abort({ event: "error", data: "gone" })).toBe(
      "data: 1:gone\n\nevent: end\ndata: 2\n\n",
    );
    expect(decoderEnded).toBe(false);
    expect(seen).toEqual(["x", "gone"]);
  });

  it("lets a stage's throw reach the caller", () => {
    const failing: PushTransformer<SseEvent, SseEvent> = {
      push: () => {
        throw new Error("boom");
      },
      end: () => {},
    };
    const t = createSseTranslator(failing, identity);
    expect(() => t.push("data: x\n\n")).toThrow("boom");
  });
});
