import { afterEach, describe, expect, it, vi } from "vitest";
import { PROTOCOLS } from "../upstream/protocols.ts";
import type { Committed } from "./attempt-upstreams.ts";
import { jsonDelivery } from "./respond-json.ts";

type JsonCommitted = Extract<Committed, { kind: "json" }>;

/** A same-format chat reply as the gateway committed to it (only what jsonDelivery reads). */
const sameFormat = (json: Record<string, unknown>): JsonCommitted =>
  ({
    kind: "json",
    text: JSON.stringify(json),
    json,
    candidate: { channel: { protocol: "openai" } },
  }) as unknown as JsonCommitted;

const reply = (usage: unknown) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1_700_000_000,
  model: "m",
  choices: [{ index: 0, message: { role: "assistant", content: "hello" }, finish_reason: "stop" }],
  usage,
});

const parse = PROTOCOLS.openai.upstreamCodec.response;

afterEach(() => vi.restoreAllMocks());

describe("a same-format reply's delivery", () => {
  it("reads a reported usage without parsing the reply, as the parse would read it", () => {
    const spy = vi.spyOn(parse, "parse");
    const usage = { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 };
    const delivered = jsonDelivery(sameFormat(reply(usage)));
    expect(delivered.usage).toStrictEqual(parse.parse(reply(usage)).usage);
    expect(spy).toHaveBeenCalledTimes(1); // only the expectation's own parse
  });

  it("parses once, and only when its characters or finish reason are asked for", () => {
    const spy = vi.spyOn(parse, "parse");
    const delivered = jsonDelivery(sameFormat(reply({ prompt_tokens: 7, completion_tokens: 3 })));
    expect(spy).not.toHaveBeenCalled();
    expect(delivered.outputChars).toBe("hello".length);
    expect(delivered.finishReason).toBe("stop");
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it("a usage that is no usage takes the parse's path: unknown, the reply's text counted", () => {
    for (const usage of [
      { prompt_tokens: -1, completion_tokens: 3 },
      { prompt_tokens: 1.5 },
      null,
    ]) {
      const delivered = jsonDelivery(sameFormat(reply(usage)));
      expect(delivered.usage, JSON.stringify(usage)).toBeUndefined();
      expect(delivered.outputChars).toBe("hello".length);
    }
  });

  it("a reply the codec would refuse elsewhere is still charged the usage it reported", () => {
    // Relayed to the client as sent, so billed as the upstream reported it, not estimated.
    const usage = { prompt_tokens: 7, completion_tokens: 3 };
    const delivered = jsonDelivery(sameFormat({ ...reply(usage), choices: [{ index: -1 }] }));
    expect(delivered.usage).toMatchObject({ inputTokens: 7, outputTokens: 3 });
    expect(delivered.finishReason).toBeUndefined();
  });
});
