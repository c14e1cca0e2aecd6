import { describe, expect, it } from "vitest";
import { accumulateStream } from "./accumulate-stream.js";
import type { IndexedOutput, ResponseBase } from "./response.js";
import { outputsOf, withOutputs } from "./response-outputs.js";
import { responseToEvents } from "./response-to-events.js";
import { emptyUsage } from "./usage-values.js";
import type { Warning } from "./warning.js";

const base: ResponseBase = {
  id: "r",
  model: "m",
  created: 1,
  usage: { ...emptyUsage(), inputTokens: 1, outputTokens: 1 },
};
const output = (index: number, text: string): IndexedOutput => ({
  index,
  message: { role: "assistant", parts: [{ type: "text", text }] },
  finishReason: { unified: "stop" },
});
const build = (outputs: IndexedOutput[]) => {
  const warnings: Warning[] = [];
  const response = withOutputs(
    base,
    outputs,
    (w) => warnings.push(w),
    (i) => `choices[${i}]`,
  );
  return { response, warnings };
};

describe("the primary output and alternatives", () => {
  it("index 0 is the primary output, the others alternatives in their order", () => {
    const { response, warnings } = build([output(0, "a"), output(2, "c"), output(1, "b")]);
    expect(response.message.parts).toEqual([{ type: "text", text: "a" }]);
    expect(response.alternatives?.map((a) => a.index)).toEqual([2, 1]);
    expect(outputsOf(response).map((o) => o.index)).toEqual([0, 2, 1]);
    expect(warnings).toEqual([]);
  });

  it("no outputs is noOutput, which lists none and streams none", () => {
    const { response, warnings } = build([]);
    expect(response).toEqual({
      ...base,
      message: { role: "assistant", parts: [] },
      finishReason: { unified: "other" },
      noOutput: true,
    });
    expect(outputsOf(response)).toEqual([]);
    expect(responseToEvents(response).map((e) => e.type)).toEqual(["response-start", "usage"]);
    expect(accumulateStream(responseToEvents(response))).toEqual(response);
    expect(warnings).toEqual([]);
  });

  it("what the shape cannot hold in place is reported: a late index 0 moves first, a second is dropped", () => {
    const { response, warnings } = build([output(1, "b"), output(0, "a"), output(0, "again")]);
    expect(outputsOf(response).map((o) => o.index)).toEqual([0, 1]);
    expect(warnings.map((w) => [w.type, w.feature])).toEqual([
      ["mapped", "choices[1]"],
      ["dropped", "choices[2]"],
    ]);
  });

  it("the primary output's provider extras sit on the response beside the reply's own", () => {
    const ratings = [{ category: "HARM_CATEGORY_HATE_SPEECH", probability: "LOW" as const }];
    const feedback = { blockReason: "OTHER" };
    const { response } = build([
      { ...output(0, "a"), providerExtras: { gemini: { safetyRatings: ratings } } },
    ]);
    expect(response.providerExtras).toEqual({ gemini: { safetyRatings: ratings } });
    const both = withOutputs(
      { ...base, providerExtras: { gemini: { promptFeedback: feedback } } },
      outputsOf(response),
      undefined,
      String,
    );
    expect(both.providerExtras).toEqual({
      gemini: { promptFeedback: feedback, safetyRatings: ratings },
    });
    const events = responseToEvents(both);
    expect(events.find((e) => e.type === "provider-extras")).toEqual({
      type: "provider-extras",
      providerExtras: { gemini: { promptFeedback: feedback } },
    });
    expect(accumulateStream(events)).toEqual(both);
  });
});
