import type { Request, Warning } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { renderMessagesRequest } from "./render-messages-request.js";

// Item 6 of issue 20: Anthropic's documented thinking rules are met before a request is sent
// (budget_tokens >= 1024 and < max_tokens; temperature only 1, no top_k, top_p 0.95..1 with
// thinking on; no forced tool with thinking), adapted with a warning, never sent to be rejected.

const request = (over: Partial<Request>): Request => ({
  model: "txtB-sonnet-4-6",
  system: [],
  messages: [{ role: "user", parts: [{ type: "text", text: "think" }] }],
  sampling: {},
  tools: [],
  stream: false,
  ...over,
});

function render(over: Partial<Request>) {
  const list: Warning[] = [];
  const wire = renderMessagesRequest(request(over), { onWarning: (w) => list.push(w) });
  return { wire, warnings: list.map((w) => `${w.feature}=${w.type}`) };
}

describe("Anthropic thinking constraints", () => {
  it("a budget of 1024 with max_tokens 500 cannot fit: thinking is off, reported as dropped", () => {
    const { wire, warnings } = render({
      sampling: { maxTokens: 500 },
      thinking: { type: "enabled", budgetTokens: 1024 },
    });
    expect(wire).not.toHaveProperty("thinking");
    expect(wire.max_tokens).toBe(500);
    expect(warnings).toContain("thinking=dropped");
  });

  it("a client budget at or above max_tokens is shrunk to leave room for the answer", () => {
    const { wire, warnings } = render({
      sampling: { maxTokens: 4000 },
      thinking: { type: "enabled", budgetTokens: 8000 },
    });
    expect(wire.thinking).toEqual({ type: "enabled", budget_tokens: 4000 - 1024 });
    expect(warnings).toContain("thinking.budgetTokens=mapped");
  });

  it("a client budget below 1024 is raised to Anthropic's minimum", () => {
    const { wire } = render({
      sampling: { maxTokens: 4000 },
      thinking: { type: "enabled", budgetTokens: 100 },
    });
    expect(wire.thinking).toEqual({ type: "enabled", budget_tokens: 1024 });
  });

  it("a valid client budget is sent as given", () => {
    const { wire, warnings } = render({
      sampling: { maxTokens: 10000 },
      thinking: { type: "enabled", budgetTokens: 8000 },
    });
    expect(wire.thinking).toEqual({ type: "enabled", budget_tokens: 8000 });
    expect(warnings).toEqual([]);
  });

  it("high effort with max_tokens 20000 leaves a quarter for the answer, not one token", () => {
    const { wire } = render({
      sampling: { maxTokens: 20000 },
      thinking: { type: "enabled", effort: "high" },
    });
    const budget = (wire.thinking as { budget_tokens: number }).budget_tokens;
    expect(budget).toBe(15000);
    expect(wire.max_tokens - budget).toBeGreaterThanOrEqual(5000);
  });

  it("temperature other than 1 and top_k are dropped, top_p is raised to 0.95, with thinking on", () => {
    const { wire, warnings } = render({
      sampling: { maxTokens: 8000, temperature: 0.2, topK: 40, topP: 0.5 },
      thinking: { type: "enabled", budgetTokens: 2048 },
    });
    expect(wire).not.toHaveProperty("temperature");
    expect(wire).not.toHaveProperty("top_k");
    expect(wire.top_p).toBe(0.95);
    expect(warnings).toEqual(
      expect.arrayContaining([
        "sampling.temperature=dropped",
        "sampling.topK=dropped",
        "sampling.topP=mapped",
      ]),
    );
    // Adaptive thinking is thinking too.
    const adaptive = render({
      model: "txtB-opus-4-8",
      sampling: { maxTokens: 8000, temperature: 0.2 },
      thinking: { type: "adaptive" },
    });
    expect(adaptive.wire).not.toHaveProperty("temperature");
  });

  it("temperature 1 and top_p 0.97 are kept with thinking on; all are kept with thinking off", () => {
    expect(
      render({
        sampling: { maxTokens: 8000, temperature: 1, topP: 0.97 },
        thinking: { type: "enabled", budgetTokens: 2048 },
      }).wire,
    ).toMatchObject({ temperature: 1, top_p: 0.97 });
    expect(
      render({ sampling: { maxTokens: 8000, temperature: 0.2, topK: 5, topP: 0.5 } }).wire,
    ).toMatchObject({ temperature: 0.2, top_k: 5, top_p: 0.5 });
  });

  it("a forced tool turns thinking off (Anthropic refuses the two together)", () => {
    const { wire, warnings } = render({
      sampling: { maxTokens: 8000 },
      tools: [{ type: "function", name: "f", parameters: { type: "object" } }],
      toolChoice: { type: "required" },
      thinking: { type: "enabled", budgetTokens: 2048 },
    });
    expect(wire.tool_choice).toEqual({ type: "any" });
    expect(wire).not.toHaveProperty("thinking");
    expect(warnings).toContain("thinking=dropped");
  });
});
