import { frameTapOracle, wireJson as json } from "@interlingua/core-types/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chat } from "./chat-codec.js";
import { chatStreamFrames } from "./chat-stream-frames.js";

const { neededPerFrame, unneeded } = frameTapOracle(chat, chatStreamFrames);

/** Text that looks like the keys searched for, inside a string value, where it must not count. */
const trickyText = fc.oneof(
  fc.string(),
  fc.constantFrom('"usage":{}', '"error"', "finish_reason", '"choices":[]', "x_groq", "é\u{1F600}"),
);

const choice = fc.record({
  index: fc.nat(2),
  delta: fc.record(
    { role: fc.constant("assistant"), content: trickyText, reasoning_content: trickyText },
    { requiredKeys: [] },
  ),
  finish_reason: fc.constant(null),
});
const usage = fc.record({ prompt_tokens: fc.nat(), completion_tokens: fc.nat() });

/**
 * A chunk as OpenAI writes it: mostly a plain delta, now and then with one thing a reader needs
 * (a finish, usage, Groq's usage, an error), or the usage chunk itself.
 */
const chunk = fc
  .oneof(
    { weight: 4, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: fc.record({ finish_reason: fc.constantFrom("stop", "length") }) },
    { weight: 1, arbitrary: fc.record({ usage }) },
    { weight: 1, arbitrary: fc.record({ x_groq: fc.record({ usage }) }) },
    { weight: 1, arbitrary: fc.record({ error: fc.record({ message: trickyText }) }) },
    { weight: 1, arbitrary: fc.record({ choices: fc.constant([]), usage }) },
  )
  .chain((extra) =>
    fc.array(choice, { minLength: 1, maxLength: 2 }).map((choices) => {
      const { finish_reason, ...rest } = extra as { finish_reason?: string };
      const withFinish =
        finish_reason === undefined
          ? choices
          : [{ ...choices[0]!, finish_reason }, ...choices.slice(1)];
      return {
        id: "chatcmpl-1",
        object: "chat.completion.chunk",
        choices: withFinish,
        usage: null,
        ...rest,
      };
    }),
  );

describe("chatStreamFrames", () => {
  it("a frame the scan or the plain test lets by decodes to nothing a reader needs", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            chunk,
            fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, fc.constant(true)),
          ),
          {
            minLength: 1,
            maxLength: 6,
          },
        ),
        fc.boolean(),
        (values, spaced) => {
          // Now and then a frame named `event: error`: an error whatever its data says.
          const frames = values.map(([value, named]) =>
            named ? { event: "error", data: json(value, spaced) } : { data: json(value, spaced) },
          );
          const needed = neededPerFrame(frames);
          const skipped = unneeded(
            frames.map(
              (frame) => `${"event" in frame ? "event: error\n" : ""}data: ${frame.data}\n\n`,
            ),
          );
          frames.forEach((frame, i) => {
            if (skipped[i] || chatStreamFrames.plain(frame))
              expect(needed[i], frame.data).toEqual([]);
          });
        },
      ),
    );
  });

  it("lets text, reasoning and argument deltas by; finish, usage and errors are needed", () => {
    const { plain } = chatStreamFrames;
    const data = (choice: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      JSON.stringify({ id: "c", choices: [choice], usage: null, ...extra });
    const delta = (d: Record<string, unknown>) => ({ index: 0, delta: d, finish_reason: null });
    expect(plain({ data: data(delta({ content: "hi" })) })).toBe(true);
    expect(plain({ data: data(delta({ reasoning_content: "hm" })) })).toBe(true);
    expect(plain({ data: data(delta({ content: 'say "usage":{} or "error"' })) })).toBe(true);
    expect(plain({ data: data({ index: 0, delta: {}, finish_reason: "stop" }) })).toBe(false);
    expect(plain({ data: data(delta({ content: "x" }), { usage: { total_tokens: 3 } }) })).toBe(
      false,
    );
    expect(plain({ data: JSON.stringify({ choices: [], usage: { prompt_tokens: 1 } }) })).toBe(
      false,
    );
    expect(plain({ data: JSON.stringify({ error: { message: "x" } }) })).toBe(false);
    expect(plain({ data: data(delta({ content: "x" }), { x_groq: { usage: {} } }) })).toBe(false);
    // Two choices, one finishing: not plain.
    const two = JSON.stringify({
      choices: [delta({ content: "a" }), { index: 1, delta: {}, finish_reason: "length" }],
    });
    expect(plain({ data: two })).toBe(false);
    // A provider that writes spaces is simply decoded.
    expect(plain({ data: '{"choices":[{"delta":{"content":"a"},"finish_reason": null}]}' })).toBe(
      false,
    );
  });

  it("finds the needed keys in raw bytes, one pass for growing offsets", () => {
    const text =
      'data: {"choices":[{"delta":{"content":"a"},"finish_reason":null}],"usage":null}\n\n' +
      'data: {"choices":[{"delta":{},"finish_reason":"stop"}],"usage":null}\n\n' +
      'data: {"choices":[],"usage":{"total_tokens":3}}\n\n';
    const needed = chatStreamFrames.scan(text);
    const finish = text.indexOf('"finish_reason":"stop"');
    expect(needed(0)).toBe(finish);
    expect(needed(finish + 1)).toBe(text.indexOf("[]"));
    expect(needed(text.length - 3)).toBe(text.length);
    // Each chunk is one `data: {` frame; `[DONE]` is not a delta.
    expect(chatStreamFrames.deltaFrameStart).toBe("data: {");
  });
});
