import type { Warning } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { parseMessagesToolChoice, renderMessagesToolChoice } from "./map-messages-tool-choice.js";

describe("tool_choice <-> toolChoice and parallelToolCalls", () => {
  it("reads each type, and the parallel switch inverted", () => {
    expect(parseMessagesToolChoice({ type: "any" })).toEqual({ toolChoice: { type: "required" } });
    expect(parseMessagesToolChoice({ type: "none" })).toEqual({ toolChoice: { type: "none" } });
    expect(
      parseMessagesToolChoice({ type: "tool", name: "f", disable_parallel_tool_use: true }),
    ).toEqual({ toolChoice: { type: "tool", name: "f" }, parallelToolCalls: false });
    expect(parseMessagesToolChoice({ type: "auto", disable_parallel_tool_use: false })).toEqual({
      toolChoice: { type: "auto" },
      parallelToolCalls: true,
    });
  });

  it("writes back what it read", () => {
    for (const wire of [
      { type: "auto" },
      { type: "any", disable_parallel_tool_use: true },
      { type: "tool", name: "f", disable_parallel_tool_use: false },
      { type: "none" },
    ] as const) {
      expect(renderMessagesToolChoice(parseMessagesToolChoice(wire), true, () => {})).toEqual(wire);
    }
  });

  it("a parallel switch alone needs tools; with none it is dropped, warned", () => {
    const warnings: Warning[] = [];
    const onWarning = (w: Warning) => warnings.push(w);
    expect(renderMessagesToolChoice({ parallelToolCalls: false }, true, onWarning)).toEqual({
      type: "auto",
      disable_parallel_tool_use: true,
    });
    expect(
      renderMessagesToolChoice({ parallelToolCalls: false }, false, onWarning),
    ).toBeUndefined();
    expect(
      renderMessagesToolChoice(
        { toolChoice: { type: "none" }, parallelToolCalls: true },
        true,
        onWarning,
      ),
    ).toEqual({ type: "none" });
    expect(warnings.map((w) => [w.type, w.feature])).toEqual([
      ["dropped", "parallelToolCalls"],
      ["dropped", "parallelToolCalls"],
    ]);
  });
});
