import type { Warning } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { chatServiceTier } from "./chat-service-tier.js";

describe("service_tier toward chat", () => {
  const run = (tier: string | undefined) => {
    const warnings: Warning[] = [];
    return { out: chatServiceTier(tier, (w) => warnings.push(w)), warnings };
  };
  it("writes another provider's standard tier as OpenAI's default", () => {
    expect(run("standard")).toEqual({ out: "default", warnings: [] });
  });
  it("leaves out a tier chat has no word for, with a warning", () => {
    const { out, warnings } = run("batch");
    expect(out).toBeUndefined();
    expect(warnings.map((w) => w.feature)).toEqual(["usage.serviceTier"]);
    expect(run("unspecified").out).toBeUndefined();
  });
  it("passes OpenAI's own and OpenAI-compatible tiers as they are", () => {
    for (const tier of ["auto", "default", "flex", "scale", "priority", "on_demand"]) {
      expect(run(tier)).toEqual({ out: tier, warnings: [] });
    }
    expect(run(undefined).out).toBeUndefined();
  });
});
