import { describe, expect, it } from "vitest";
import { expandParallelWrapper } from "./expand-parallel-wrapper.js";

describe("expandParallelWrapper", () => {
  it("expands OpenAI's parallel wrapper into one call per tool use", () => {
    const args = JSON.stringify({
      tool_uses: [
        { recipient_name: "functions.weather", parameters: { location: "Paris" } },
        { recipient_name: "functions.time" },
      ],
    });
    expect(expandParallelWrapper("call_w", "multi_tool_use.parallel", args)).toEqual([
      { type: "tool-call", id: "call_w_0", name: "weather", arguments: '{"location":"Paris"}' },
      { type: "tool-call", id: "call_w_1", name: "time", arguments: "{}" },
    ]);
  });

  it("leaves anything that is not a well-formed wrapper alone", () => {
    const use = (recipient_name: unknown, parameters: unknown = {}) =>
      JSON.stringify({ tool_uses: [{ recipient_name, parameters }] });
    const cases: [string, string][] = [
      ["parallel_search", use("functions.a")], // another tool that happens to look alike
      ["parallel", "{not json"],
      ["parallel", "{}"],
      ["parallel", JSON.stringify({ tool_uses: [] })],
      ["parallel", use("web.search")],
      ["parallel", use("functions.")],
      ["parallel", use(42)],
      ["parallel", use("functions.a", [1, 2])],
    ];
    for (const [name, args] of cases)
      expect(expandParallelWrapper("c", name, args)).toBeUndefined();
  });
});
