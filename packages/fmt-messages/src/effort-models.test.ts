import type { Request } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { warnings } from "../test/helpers.js";
import { acceptsEffort } from "./messages-model-defaults.js";
import { normalizeMessagesRequest } from "./normalize-messages.js";
import { parseMessagesRequest } from "./parse-messages-request.js";
import { renderMessagesRequest } from "./render-messages-request.js";

// Issue 26, point 10: a translated effort reaches output_config.effort only on models that take
// it; elsewhere the thinking budget carries it. The client's own output_config is never withheld.

const request = (model: string, thinking: Request["thinking"]): Request => ({
  model,
  system: [],
  messages: [{ role: "user", parts: [{ type: "text", text: "hi" }] }],
  sampling: { maxTokens: 20_000 },
  tools: [],
  stream: false,
  ...(thinking ? { thinking } : {}),
});

describe("output_config.effort per model family", () => {
  it.each([
    ["txtB-opus-4-5-20251101", true],
    ["claude-opus-4-5-20251101", true],
    ["txtB-opus-4-6", true],
    ["txtB-sonnet-4-6", true],
    ["txtB-opus-4-7", true],
    ["txtB-opus-4-8", true],
    ["claude-sonnet-5", true],
    ["claude-mythos-1", true],
    ["claude-sonnet-4-5-20250929", false],
    ["claude-sonnet-4-20250514", false],
    ["claude-opus-4-1-20250805", false],
    ["claude-opus-4-20250514", false],
    ["claude-haiku-4-5", false],
    ["claude-3-7-sonnet-latest", false],
    ["upstream-model-name", false],
  ])("%s takes effort: %s", (model, takes) => {
    expect(acceptsEffort(model)).toBe(takes);
  });

  it("a model that takes effort gets it beside the derived budget", () => {
    const wire = renderMessagesRequest(
      request("txtB-opus-4-5-20251101", { type: "enabled", effort: "low" }),
    );
    expect(wire["output_config"]).toEqual({ effort: "low" });
    expect(wire.thinking).toEqual({ type: "enabled", budget_tokens: 4096 });
  });

  it("a model that refuses it gets the effort as a budget only, reported as mapped", () => {
    const { list, onWarning } = warnings();
    const wire = renderMessagesRequest(
      request("claude-sonnet-4-5-20250929", { type: "enabled", effort: "high" }),
      { onWarning },
    );
    expect(wire).not.toHaveProperty("output_config");
    expect(wire.thinking).toEqual({ type: "enabled", budget_tokens: 15_000 });
    expect(list.map((w) => [w.type, w.feature])).toEqual([
      ["mapped", "thinking.budgetTokens"],
      ["mapped", "thinking.effort"],
    ]);
  });

  it("with the client's budget or adaptive thinking, a refused effort is dropped (strict refuses)", () => {
    const { list, onWarning } = warnings();
    const budget = renderMessagesRequest(
      request("claude-haiku-4-5", { type: "enabled", budgetTokens: 2048, effort: "medium" }),
      { onWarning },
    );
    expect(budget).not.toHaveProperty("output_config");
    expect(budget.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
    const adaptive = renderMessagesRequest(
      request("claude-sonnet-4-5", { type: "adaptive", effort: "medium" }),
      { onWarning },
    );
    expect(adaptive).not.toHaveProperty("output_config");
    expect(list.map((w) => [w.type, w.feature])).toEqual([
      ["dropped", "thinking.effort"],
      ["dropped", "thinking.effort"],
    ]);
  });

  it("a messages client's own output_config.effort passes untouched to any model", () => {
    for (const model of ["claude-sonnet-4-5-20250929", "txtB-opus-4-6", "upstream-model-name"]) {
      const wire = {
        model,
        max_tokens: 20_000,
        messages: [{ role: "user" as const, content: "hi" }],
        thinking: { type: "enabled" as const, budget_tokens: 4000 },
        output_config: { effort: "medium" },
      };
      const { list, onWarning } = warnings();
      const rendered = renderMessagesRequest(parseMessagesRequest(wire), { onWarning });
      expect(rendered).toEqual(normalizeMessagesRequest(wire));
      expect(rendered["output_config"]).toEqual({ effort: "medium" });
      expect(list).toEqual([]);
    }
  });
});
