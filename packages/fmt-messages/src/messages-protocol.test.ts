import type { Warning } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { DEFAULT_ANTHROPIC_VERSION, messagesProtocol } from "./messages-protocol.js";

describe("messagesProtocol: Anthropic's wire", () => {
  it("sends the key, the client's version and beta flags, or the default version", () => {
    expect(messagesProtocol.path("m", false)).toBe("/v1/messages");
    expect(messagesProtocol.headers("k")).toEqual({
      "x-api-key": "k",
      "anthropic-version": DEFAULT_ANTHROPIC_VERSION,
    });
    expect(
      messagesProtocol.headers("k", { "anthropic-version": "2024-01-01", "anthropic-beta": "b1" }),
    ).toEqual({ "x-api-key": "k", "anthropic-version": "2024-01-01", "anthropic-beta": "b1" });
  });

  it("a forwarded tool turn that lost its signed thinking goes without thinking, warned", () => {
    const warnings: Warning[] = [];
    const body = {
      model: "alias",
      max_tokens: 100,
      thinking: { type: "enabled", budget_tokens: 1024 },
      messages: [
        { role: "user", content: "weather?" },
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "toolu_1", name: "get_weather", input: {} }],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "9C" }] },
      ],
    };
    const forwarded = messagesProtocol.forward(body, "txtB-sonnet-4-6", false, (w) =>
      warnings.push(w),
    );
    expect(forwarded.wire).toEqual({
      ...body,
      model: "txtB-sonnet-4-6",
      thinking: { type: "disabled" },
    });
    expect(warnings.map((w) => [w.type, w.feature])).toEqual([["mapped", "thinking"]]);
  });
});
