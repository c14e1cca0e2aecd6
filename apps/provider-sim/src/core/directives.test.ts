import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseDirectives } from "./directives.ts";
import { generatedWords, interleave, splitArguments, splitForStream } from "./words.ts";

describe("parseDirectives", () => {
  it("reads every directive and strips it from the text", () => {
    const d = parseDirectives(
      "weather please [[tool:get_weather]] [[tools:2]] [[len:5]] [[max]] [[think]] [[replay:a/b.json]] [[fault:status=429]] [[fail]] [[polls:3]] [[safety:prompt]]",
    );
    expect(d).toEqual({
      text: "weather please",
      toolNames: ["get_weather"],
      toolCount: 2,
      words: 5,
      max: true,
      think: true,
      replay: "a/b.json",
      fault: "status=429",
      fail: true,
      polls: 3,
      safety: "prompt",
    });
  });

  it("keeps unknown or malformed markers as text", () => {
    const d = parseDirectives("a [[nope]] b [[len:x]]");
    expect(d.text).toBe("a [[nope]] b [[len:x]]");
    expect(d.words).toBeUndefined();
  });

  it("joins several fault directives", () => {
    expect(parseDirectives("[[fault:latency=5]] [[fault:status=500]]").fault).toBe(
      "latency=5,status=500",
    );
  });

  it("[[safety]] without an argument is an empty string", () => {
    expect(parseDirectives("a fox [[safety]]")).toMatchObject({ text: "a fox", safety: "" });
    expect(parseDirectives("a fox").safety).toBeUndefined();
  });

  it("[[tool]] without a name calls the first tool", () => {
    expect(parseDirectives("[[tool]]").toolCount).toBe(1);
  });
});

describe("stream pieces", () => {
  it("concatenate back to the text, whatever the text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        expect(splitForStream(text).join("")).toBe(text);
        expect(splitArguments(text).join("")).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it("hold up to three words each", () => {
    expect(splitForStream("echo: one two three four")).toEqual(["echo: one two", " three four"]);
  });

  it("[[len:N]] words are predictable", () => {
    expect(generatedWords(3)).toBe("alpha bravo charlie");
    expect(generatedWords(27).split(" ").at(-1)).toBe("alpha");
  });

  it("interleave takes one item per list in turn", () => {
    expect(interleave([[1, 2, 3], [4], [5, 6]])).toEqual([1, 4, 5, 2, 6, 3]);
  });
});
