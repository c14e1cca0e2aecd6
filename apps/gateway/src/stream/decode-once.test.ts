import { PassThrough } from "node:stream";
import { keyRedactor } from "@interlingua/errors";
import { chatProtocol } from "@interlingua/fmt-chat/protocol";
import { afterEach, describe, expect, it, vi } from "vitest";
import { watchSse } from "./observe-sse.ts";
import { passThroughStage } from "./pass-through-stage.ts";
import { redactingSink } from "./redacting-sink.ts";
import { startRelay } from "./relay.ts";

const utf8 = new TextEncoder();
const KEY = "sk-live-0123456789abcdef";
const frame = (text: string) =>
  `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"${text}"},"finish_reason":null}]}\n\n`;

afterEach(() => vi.restoreAllMocks());

describe("a same-format stream relayed through the key redaction", () => {
  it("is read as text once per chunk: the redaction reuses the frame search's text", async () => {
    const codec = chatProtocol.upstreamCodec.stream;
    const watch = watchSse({
      decoder: codec.decoder(),
      onEvent: () => {},
      onDecodeError: () => {},
      strict: true,
    });
    const stage = passThroughStage(watch, () => [], codec.frames);
    const sent: Uint8Array[] = [];
    const sink = redactingSink(
      {
        write: (bytes) => sent.push(bytes) > 0,
        end: (last) => void (last !== undefined && sent.push(last)),
        waiting: () => true,
      },
      keyRedactor([KEY]),
    );
    const chunks = [
      frame("hello").repeat(4),
      frame("more").repeat(6),
      frame(`leaked ${KEY}`) + frame("end"),
      "data: [DONE]\n\n",
    ].map((text) => utf8.encode(text));
    const rest = new PassThrough();
    rest.pause();
    const decodes = vi.spyOn(Buffer.prototype, "toString");
    const ended = new Promise<void>((resolve) => {
      startRelay(
        { first: chunks[0]!, rest },
        stage,
        { keepAliveMs: undefined, drain: { maxMs: 1000, maxBytes: 100 }, onEnd: () => resolve() },
        sink,
      );
    });
    // Each in a tick of its own: the relay reads what arrived in one tick as one chunk.
    for (const chunk of chunks.slice(1)) {
      await new Promise((resolve) => setImmediate(resolve));
      rest.write(chunk);
    }
    rest.end();
    await ended;
    const latin1 = decodes.mock.calls.filter(([encoding]) => encoding === "latin1").length;
    expect(latin1).toBe(chunks.length);
    const out = Buffer.concat(sent).toString("utf8");
    expect(out).not.toContain(KEY);
    expect(out).toContain("leaked [redacted]");
  });
});
