import { accumulateStream } from "@interlingua/core-types";
import {
  ARGUMENT_FRAGMENTS,
  decodeGuarded,
  fc,
  noHalfJsonProperty,
} from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { chat } from "./chat-codec.js";

// Protocol-shaped but odd chat streams: a second first chunk, calls whose fragments arrive out
// of order, repeat, go missing or come after the finish, usage first or twice, no [DONE].
const head = { id: "c1", object: "chat.completion.chunk", created: 1, model: "m" };
const chunk = (delta: object, finish: string | null = null, index = 0) =>
  JSON.stringify({ ...head, choices: [{ index, delta, finish_reason: finish }] });
const usage = (n: number) =>
  JSON.stringify({ ...head, choices: [], usage: { prompt_tokens: n, completion_tokens: n } });

const message = fc.oneof(
  fc.constant(chunk({ role: "assistant", content: "" })),
  fc.constant(chunk({ content: "hi" })),
  fc.constant(chunk({ reasoning_content: "hm" })),
  fc
    .record({
      index: fc.nat({ max: 2 }),
      withId: fc.boolean(),
      fragment: fc.constantFrom(...ARGUMENT_FRAGMENTS),
    })
    .map(({ index, withId, fragment }) =>
      chunk({
        tool_calls: [
          {
            index,
            ...(withId ? { id: `call_${index}`, type: "function" } : {}),
            function: { ...(withId ? { name: "f" } : {}), arguments: fragment },
          },
        ],
      }),
    ),
  fc.constantFrom("stop", "tool_calls", "length").map((reason) => chunk({}, reason)),
  fc.nat({ max: 50 }).map(usage),
  fc.constant("[DONE]"),
);

describe("chat stream decoder, fuzzed", () => {
  it("never hands a client a half-JSON tool argument string", () => {
    fc.assert(
      noHalfJsonProperty(
        message.map((data) => ({ data })),
        () => chat.stream.decoder(),
        25,
      ),
      { numRuns: 500 },
    );
  });

  it("a call cut off mid-arguments ends the stream with an error; an empty one gets {}", () => {
    const run = (data: string[]) =>
      decodeGuarded(
        chat.stream.decoder(),
        data.map((d) => ({ data: d })),
      );
    const cut = run([
      chunk({ tool_calls: [{ index: 0, id: "c", function: { name: "f", arguments: '{"a":' } }] }),
      chunk({}, "length"),
    ]);
    expect(cut.at(-1)?.type).toBe("error");
    const empty = run([
      chunk({ tool_calls: [{ index: 0, id: "c", function: { name: "f", arguments: "" } }] }),
      chunk({}, "tool_calls"),
    ]);
    expect(accumulateStream(empty).message.parts[0]).toMatchObject({
      arguments: "{}",
    });
  });
});
