import type { Request, Warning } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { generatedCallId } from "./native-tool-call-ids.js";
import { renderNativeRequest } from "./render-native-request.js";

// Item 4 of issue 20: Gemini pairs functionResponse parts with same-name functionCall parts by
// position. A chat, messages or responses client may answer two same-name calls in any order;
// the ids are the gateway's, so the render puts the results back in call order.

const call = (n: number, city: string) => ({
  type: "tool-call" as const,
  id: generatedCallId(n),
  name: "weather",
  arguments: JSON.stringify({ city }),
});
const result = (n: number, text: string) => ({
  type: "tool-result" as const,
  toolCallId: generatedCallId(n),
  name: "weather",
  content: [{ type: "text" as const, text }],
});

function request(results: ReturnType<typeof result>[], extra: Request["messages"] = []): Request {
  return {
    model: "txtC-2.5-pro",
    system: [],
    sampling: {},
    tools: [],
    stream: false,
    messages: [
      { role: "user", parts: [{ type: "text", text: "Paris, Rome?" }] },
      {
        role: "assistant",
        parts: [
          call(0, "Paris"),
          call(1, "Rome"),
          { type: "tool-call", id: "time-1", name: "time", arguments: "{}" },
        ],
      },
      { role: "tool", parts: results },
      ...extra,
    ],
  };
}

const responses = (r: Request, warnings?: Warning[]) =>
  renderNativeRequest(
    r,
    warnings ? { onWarning: (w) => warnings.push(w) } : {},
  ).contents[2]?.parts.map((p) => p.functionResponse?.response);

describe("parallel calls answered out of order", () => {
  it("puts same-name results back in the order of their calls, with a mapped warning", () => {
    const warnings: Warning[] = [];
    expect(responses(request([result(1, "rainy"), result(0, "sunny")]), warnings)).toEqual([
      { result: "sunny" },
      { result: "rainy" },
    ]);
    expect(warnings).toContainEqual(
      expect.objectContaining({ type: "mapped", feature: "messages[2].parts" }),
    );
  });

  it("keeps other names in their places and only permutes within a name", () => {
    const time = { ...result(9, "noon"), toolCallId: "time-1", name: "time" };
    const out = responses(request([result(1, "rainy"), time, result(0, "sunny")]));
    expect(out).toEqual([{ result: "sunny" }, { result: "noon" }, { result: "rainy" }]);
  });

  it("leaves results already in call order untouched (no warning)", () => {
    const warnings: Warning[] = [];
    responses(request([result(0, "sunny"), result(1, "rainy")]), warnings);
    expect(warnings.filter((w) => w.feature === "messages[2].parts")).toEqual([]);
  });
});
