import type { Request, Warning } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { responsesProtocol, statelessResponses } from "./responses-protocol.js";

const request = (patch: Pick<Request, "messages" | "thinking">): Request => ({
  model: "txtA-5.2-pro",
  system: [],
  sampling: {},
  tools: [],
  stream: false,
  ...patch,
});

describe("responsesProtocol: OpenAI's Responses API", () => {
  it("translates a client body (its enveloped shape is not OpenAI's)", () => {
    expect(responsesProtocol.forwardsClientBody).toBe(false);
    expect(responsesProtocol.codec).not.toBe(responsesProtocol.upstreamCodec);
    expect(responsesProtocol.path("m", true)).toBe("/v1/responses");
  });

  it("stores nothing upstream and asks for encrypted reasoning when it reasons", () => {
    expect(statelessResponses({ input: "hi" })).toEqual({ input: "hi", store: false });
    expect(statelessResponses({ input: "hi", reasoning: { effort: "low" }, store: true })).toEqual({
      input: "hi",
      reasoning: { effort: "low" },
      store: true,
      include: ["reasoning.encrypted_content"],
    });
  });

  it("a thinking budget becomes an effort; Gemini's call signatures are left out, warned", () => {
    const warnings: Warning[] = [];
    const prepared = responsesProtocol.prepare?.(
      request({
        thinking: { type: "enabled", budgetTokens: 8000 },
        messages: [
          {
            role: "assistant",
            parts: [{ type: "tool-call", id: "c1", name: "f", arguments: "{}", signature: "sig" }],
          },
        ],
      }),
      (w) => warnings.push(w),
    );
    expect(prepared?.thinking).toEqual({ type: "enabled", effort: "medium" });
    expect(prepared?.messages[0]).toEqual({
      role: "assistant",
      parts: [{ type: "tool-call", id: "c1", name: "f", arguments: "{}" }],
    });
    expect(warnings.map((w) => w.feature)).toEqual(["parts.signature", "thinking.budgetTokens"]);
  });
});
