import type { StreamEvent, Usage, Warning } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { encodeAll } from "../test/helpers.js";
import { renderMessagesUsage } from "./map-messages-usage.js";

const usage = (serviceTier?: string): Usage => ({
  inputTokens: 10,
  outputTokens: 2,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  thinkingTokens: 0,
  ...(serviceTier === undefined ? {} : { serviceTier }),
});

describe("service_tier toward messages", () => {
  it("keeps Anthropic's tiers and writes OpenAI's default as standard", () => {
    for (const tier of ["standard", "priority", "batch"]) {
      expect(renderMessagesUsage(usage(tier)).service_tier).toBe(tier);
    }
    expect(renderMessagesUsage(usage("default")).service_tier).toBe("standard");
  });
  it("a tier outside Anthropic's enum is written standard and reported, never copied", () => {
    for (const tier of ["auto", "flex", "on_demand", "constructor"]) {
      const warnings: string[] = [];
      const wire = renderMessagesUsage(usage(tier), (feature) => warnings.push(feature));
      expect(wire.service_tier).toBe("standard");
      expect(warnings).toEqual(["usage.serviceTier"]);
    }
  });
  it("no tier and no geography read as Anthropic's standard and not_available, unreported", () => {
    const warnings: string[] = [];
    const wire = renderMessagesUsage(usage(), (feature) => warnings.push(feature));
    expect([wire.service_tier, wire.inference_geo]).toEqual(["standard", "not_available"]);
    expect(warnings).toEqual([]);
  });
});

describe("service_tier and inference_geo in a messages stream", () => {
  const events = (tier?: string): StreamEvent[] => [
    { type: "response-start", id: "msg_1", model: "m", created: 0 },
    { type: "text-delta", index: 0, delta: "hi" },
    { type: "finish", finishReason: { unified: "stop" } },
    { type: "usage", usage: usage(tier) },
  ];
  const startUsage = (tier?: string, warnings: Warning[] = []) => {
    const frames = encodeAll(events(tier), (w) => warnings.push(w));
    const start = frames.find((f) => f.event === "message_start");
    return JSON.parse(start?.data ?? "{}").message.usage;
  };

  it("message_start writes strings: standard and not_available when nothing is known", () => {
    const warnings: Warning[] = [];
    expect(startUsage(undefined, warnings)).toMatchObject({
      service_tier: "standard",
      inference_geo: "not_available",
    });
    expect(warnings).toEqual([]);
  });
  it("a late standard tier (OpenAI's default) agrees with message_start: nothing is reported", () => {
    const warnings: Warning[] = [];
    startUsage("default", warnings);
    expect(warnings).toEqual([]);
  });
  it("a late tier outside Anthropic's enum is reported once", () => {
    const warnings: Warning[] = [];
    startUsage("flex", warnings);
    expect(warnings.map((w) => `${w.feature}=${w.type}`)).toEqual(["usage.serviceTier=dropped"]);
  });
});
