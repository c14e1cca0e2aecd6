import { describe, expect, it } from "vitest";
import type { LogRow } from "../src/api.ts";
import { aggregate, type DayRow, toCsv } from "../src/views/usage.tsx";

const row = (over: Partial<LogRow>): LogRow => ({
  id: 1,
  request_id: "r",
  created_at: 86_400 * 10 + 5,
  token_name: "k",
  model_name: "m1",
  channel: null,
  endpoint: "/v1/chat/completions",
  prompt_tokens: 3,
  completion_tokens: 4,
  cached_tokens: 0,
  thinking_tokens: 0,
  quota: 10,
  cost: 0.00002,
  latency_ms: 5,
  is_stream: false,
  status: 200,
  error: null,
  estimated: false,
  ...over,
});

describe("usage aggregation and CSV", () => {
  it("lays the daily groups out as one series per model", () => {
    const day = (over: Partial<DayRow>): DayRow => ({
      day: 86_400 * 10,
      model_name: "m1",
      requests: 2,
      prompt_tokens: 6,
      completion_tokens: 8,
      quota: 15,
      ...over,
    });
    const agg = aggregate([
      day({}),
      day({
        day: 86_400 * 11,
        model_name: "m2",
        requests: 1,
        prompt_tokens: 1,
        completion_tokens: 1,
        quota: 10,
      }),
    ]);
    expect(agg.days).toEqual([86_400 * 10, 86_400 * 11]);
    expect(agg.models).toEqual(["m1", "m2"]);
    expect(agg.credits).toEqual([
      [15, 0],
      [0, 10],
    ]);
    expect(agg.tokens).toEqual([
      [14, 0],
      [0, 2],
    ]);
    expect(agg.byModel.get("m1")).toEqual({ requests: 2, credits: 15, tokens: 14 });
    // A window lays out every one of its days, those without usage at zero.
    const week = aggregate([day({})], { from: 86_400 * 8, to: 86_400 * 12 });
    expect(week.days).toEqual([8, 9, 10, 11, 12].map((d) => d * 86_400));
    expect(week.credits).toEqual([[0, 0, 15, 0, 0]]);
    expect(aggregate([], { from: 0, to: 86_400 }).days).toEqual([]);
  });

  it("quotes CSV cells that need it", () => {
    const csv = toCsv([row({ error: 'bad "x", y' })]);
    const [header, line] = csv.trimEnd().split("\r\n");
    expect(header?.split(",")[0]).toBe("created_at");
    expect(line).toContain('"bad ""x"", y"');
  });
});
