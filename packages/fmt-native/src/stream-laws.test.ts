import {
  type AssistantPart,
  accumulateStream,
  mapOutputs,
  normalizeStreamEvents,
  outputsOf,
  type Response,
  responseToEvents,
  type StreamEvent,
} from "@interlingua/core-types";
import * as arb from "@interlingua/core-types/testing";
import { fc } from "@interlingua/core-types/testing";
import { decodeSse, encodeSse } from "@interlingua/sse";
import { describe, expect, it } from "vitest";
import { decodeFrames, encodeEvents, fixtureFrames, withNativeLogprobs } from "../test/helpers.js";
import { nativeFinishReasonTable, parseNativeFinishReason } from "./map-native-finish-reason.js";
import { parseNativeResponse } from "./parse-native-response.js";
import { decodeNativeStream } from "./parse-native-stream.js";
import { renderNativeResponse } from "./render-native-response.js";
import { encodeNativeStream } from "./render-native-stream.js";

async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

const streamOf = <T>(items: readonly T[]) =>
  new ReadableStream<T>({
    start(controller) {
      for (const item of items) controller.enqueue(item);
      controller.close();
    },
  });

/** The bytes cut at the given offsets, as separate chunks. */
function split(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const offsets = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const offset of offsets) {
    chunks.push(bytes.slice(start, offset));
    start = offset;
  }
  chunks.push(bytes.slice(start));
  return chunks;
}

const concat = (chunks: Uint8Array[]) => {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
};

/** Canonical events through the SSE bytes and back, the bytes split anywhere. */
async function throughBytes(events: StreamEvent[], cuts: number[], crlf: boolean) {
  const encoded = concat(
    await collect(streamOf(events).pipeThrough(encodeNativeStream()).pipeThrough(encodeSse())),
  );
  const text = new TextDecoder().decode(encoded);
  const bytes = new TextEncoder().encode(crlf ? text.replaceAll("\n", "\r\n") : text);
  return collect(
    streamOf(split(bytes, cuts)).pipeThrough(decodeSse()).pipeThrough(decodeNativeStream()),
  );
}

/**
 * Responses whose events a Gemini stream carries (on top of what the non-streamed format carries:
 * no redacted thinking, no stop sequence, no cache-write split, native finish reasons):
 * - a text or thinking part with neither text nor signature has no chunk, so there is none;
 * - a thinking part's signature moves to the next call or visible text, so thinking is unsigned;
 * - the wire has no part index: consecutive fragments of one kind are one part until it is
 *   signed, so a part does not follow an unsigned part of its own kind.
 */
const streamableResponse: fc.Arbitrary<Response> = fc
  .tuple(
    arb.response,
    fc.array(fc.constantFrom(...Object.keys(nativeFinishReasonTable)), {
      minLength: 3,
      maxLength: 3,
    }),
  )
  .map(([response, raws]): Response => {
    const { cacheWrite5mTokens: _a, cacheWrite1hTokens: _b, ...usage } = response.usage;
    usage.inputTokens -= usage.cacheWriteTokens;
    usage.cacheWriteTokens = 0;
    const mapped = mapOutputs(response, (choice, i) => {
      const parts: AssistantPart[] = [];
      for (const original of choice.message.parts) {
        if (original.type === "redacted-thinking") continue;
        // A thinking part's signature is written on the next call or visible text
        // (render-native-stream.ts), so streams carry thinking unsigned.
        let part = original;
        if (part.type === "thinking" && part.signature !== undefined) {
          const { signature: _moved, ...unsigned } = part;
          part = unsigned;
        }
        if (
          (part.type === "text" || part.type === "thinking") &&
          part.text === "" &&
          !part.signature
        )
          continue;
        const previous = parts.at(-1);
        if (
          previous?.type === part.type &&
          (previous.type === "text" || previous.type === "thinking") &&
          !previous.signature
        ) {
          continue;
        }
        parts.push(part);
      }
      const { stopSequence: _s, ...rest } = choice;
      return {
        ...withNativeLogprobs(rest),
        message: { role: "assistant" as const, parts },
        finishReason: parseNativeFinishReason(
          raws[i] as string,
          parts.some((p) => p.type === "tool-call"),
        ),
      };
    });
    const { extras: _e, ...rest } = mapped;
    return { ...rest, usage };
  })
  // A blocked prompt has no candidates (blocked-prompt.ts); one beside other outputs is no reply
  // Gemini sends, and its stream cannot be told from one.
  .filter((response) => {
    const outputs = outputsOf(response);
    const first = outputs[0];
    return !(
      outputs.length > 1 &&
      first !== undefined &&
      first.message.parts.length === 0 &&
      first.finishReason.raw !== undefined &&
      first.finishReason.raw === response.providerExtras?.gemini?.promptFeedback?.blockReason
    );
  });

describe("law 3: decode(encode(events)) equals events", () => {
  it("for the events of every streamable response", () => {
    fc.assert(
      fc.property(streamableResponse, (response) => {
        const events = responseToEvents(response);
        const frames = encodeEvents(events).map((m) => m.data);
        expect(normalizeStreamEvents(decodeFrames(frames))).toEqual(normalizeStreamEvents(events));
      }),
    );
  });

  it("whatever the byte splits and line ends (SSE framing both ways)", async () => {
    await fc.assert(
      fc.asyncProperty(
        streamableResponse,
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.boolean(),
        async (response, cuts, crlf) => {
          const events = responseToEvents(response);
          const decoded = await throughBytes(events, cuts, crlf);
          expect(normalizeStreamEvents(decoded)).toEqual(normalizeStreamEvents(events));
        },
      ),
    );
  });

  it("recordings framed as the upstream sends them (data: ...\\r\\n\\r\\n), split anywhere", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { maxLength: 20 }), async (cuts) => {
        for (const name of ["google-text", "google-stream-no-args-tool-call"]) {
          const frames = fixtureFrames(name);
          const body = new TextEncoder().encode(frames.map((f) => `data: ${f}\r\n\r\n`).join(""));
          const decoded = await collect(
            streamOf(split(body, cuts)).pipeThrough(decodeSse()).pipeThrough(decodeNativeStream()),
          );
          expect(decoded).toEqual(decodeFrames(frames));
        }
      }),
      { numRuns: 30 },
    );
  });

  it.each([
    "google-text",
    "google-reasoning",
    "google-tool-call",
    "google-tool-call-gemini3",
    "google-stream-no-args-tool-call",
  ])("for the decoded recording %s (generated ids come back the same)", (name) => {
    const events = decodeFrames(fixtureFrames(name));
    const again = decodeFrames(encodeEvents(events).map((m) => m.data));
    expect(normalizeStreamEvents(again)).toEqual(normalizeStreamEvents(events));
  });
});

describe("law 4: a stream, accumulated, equals the non-streamed response", () => {
  it("response -> events -> encode -> decode -> accumulate equals response -> render -> parse", () => {
    fc.assert(
      fc.property(streamableResponse, (response) => {
        const whole = parseNativeResponse(
          JSON.parse(JSON.stringify(renderNativeResponse(response))),
        );
        const frames = encodeEvents(responseToEvents(response)).map((m) => m.data);
        const streamed: StreamEvent[] = decodeFrames(frames);
        expect(accumulateStream(streamed)).toEqual(whole);
        expect(whole).toEqual(response);
      }),
    );
  });
});
