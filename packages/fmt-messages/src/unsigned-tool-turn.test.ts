import type { Request, Warning } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { renderMessagesRequest } from "./render-messages-request.js";

const SIG = 'EqoBCkgIARAB+/="\\';

const loop = (withThinking: boolean): Request => ({
  model: "txtB-sonnet-4-5",
  system: [],
  messages: [
    { role: "user", parts: [{ type: "text", text: "weather?" }] },
    {
      role: "assistant",
      parts: [
        ...(withThinking ? [{ type: "thinking" as const, text: "check", signature: SIG }] : []),
        { type: "tool-call", id: "toolu_1", name: "w", arguments: "{}" },
      ],
    },
    {
      role: "tool",
      parts: [
        { type: "tool-result", toolCallId: "toolu_1", content: [{ type: "text", text: "21" }] },
      ],
    },
  ],
  sampling: { maxTokens: 4096 },
  tools: [],
  stream: false,
  thinking: { type: "enabled", budgetTokens: 2048 },
});

describe("a continued tool turn and thinking", () => {
  it("with its signed thinking block: thinking stays on, the block goes first, byte-identical", () => {
    const warnings: Warning[] = [];
    const wire = renderMessagesRequest(loop(true), { onWarning: (w) => warnings.push(w) });
    expect(wire.thinking?.type).toBe("enabled");
    expect(wire.messages[1]?.content).toEqual([
      { type: "thinking", thinking: "check", signature: SIG },
      { type: "tool_use", id: "toolu_1", name: "w", input: {} },
    ]);
    expect(warnings.map((w) => w.feature)).not.toContain("thinking");
  });

  it("without it: thinking is off for this request, with a warning (never a request Anthropic rejects)", () => {
    const warnings: Warning[] = [];
    const wire = renderMessagesRequest(loop(false), { onWarning: (w) => warnings.push(w) });
    expect(wire.thinking).toEqual({ type: "disabled" });
    expect(warnings).toContainEqual(
      expect.objectContaining({ type: "mapped", feature: "thinking" }),
    );
  });
});
