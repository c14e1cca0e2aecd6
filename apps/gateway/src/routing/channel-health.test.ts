import { describe, expect, it } from "vitest";
import { ChannelHealth } from "./channel-health.ts";

describe("ChannelHealth", () => {
  it("reports error rate and latency percentiles over the last calls only", () => {
    let now = 1_000_000;
    const health = new ChannelHealth(10, () => now);
    expect(health.view("oa")).toEqual({
      channel: "oa",
      calls: 0,
      errors: 0,
      error_rate: 0,
      latency_p50_ms: null,
      latency_p95_ms: null,
      last_error_at: null,
    });
    // Ten old failures, pushed out of the window by ten newer calls (two of them failures).
    for (let i = 0; i < 10; i++) health.record("oa", false, 1_000);
    for (let i = 1; i <= 10; i++) {
      now += 1_000;
      health.record("oa", i % 5 !== 0, i * 10);
    }
    const view = health.view("oa");
    expect(view.calls).toBe(10);
    expect(view.errors).toBe(2);
    expect(view.error_rate).toBeCloseTo(0.2);
    expect(view.latency_p50_ms).toBe(60);
    expect(view.latency_p95_ms).toBe(100);
    expect(view.last_error_at).toBe(Math.floor(now / 1000));
    expect(health.view("an").calls).toBe(0);
  });
});
