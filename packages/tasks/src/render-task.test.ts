import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FAILURE_MESSAGES, failureError } from "./failure-messages.js";
import { renderSubmission } from "./render-submission.js";
import { renderTask, type TaskSnapshot } from "./render-task.js";
import { taskResourceSchema } from "./task-resource.js";
import { taskStatuses } from "./task-status.js";

const snapshot = (over: Partial<TaskSnapshot> = {}): TaskSnapshot => ({
  id: "task_1",
  status: "processing",
  progress: 42,
  createdAt: 1_700_000_000,
  estimatedTime: 60,
  cost: 0.4,
  creditsCost: 4,
  ...over,
});
const videos = [{ url: ["https://gw.example/files/a.mp4"], expires_at: 1_700_086_400 }];

describe("renderTask", () => {
  it("renders the API reference's field names in snake case", () => {
    expect(renderTask(snapshot())).toEqual({
      id: "task_1",
      status: "processing",
      cost: 0.4,
      credits_cost: 4,
      progress: 42,
      created: 1_700_000_000,
      estimated_time: 60,
    });
  });

  it("a completed task has result, completed, actual_time = completed - created, and progress 100", () => {
    const out = renderTask(
      snapshot({
        status: "completed",
        progress: 80,
        completedAt: 1_700_000_095,
        result: { videos },
      }),
    );
    expect(out).toMatchObject({ result: { videos }, completed: 1_700_000_095, actual_time: 95 });
    expect(out.progress).toBe(100);
    expect(out.error).toBeUndefined();
  });

  it("drops data a state must not show (result on a failed task, error on a completed one)", () => {
    const error = failureError("generation_failed");
    const failed = renderTask(
      snapshot({ status: "failed", completedAt: 1_700_000_010, result: { videos }, error }),
    );
    expect(failed.result).toBeUndefined();
    expect(failed.error?.code).toBe("generation_failed");
    const done = renderTask(
      snapshot({ status: "completed", completedAt: 1_700_000_010, result: { videos }, error }),
    );
    expect(done.error).toBeUndefined();
  });

  it("in-progress tasks show neither completed nor actual_time", () => {
    const out = renderTask(snapshot({ status: "pending", completedAt: 1_700_000_010 }));
    expect(out).not.toHaveProperty("completed");
    expect(out).not.toHaveProperty("actual_time");
  });

  it("a cancelled task is finished: completed and actual_time, no result, no error", () => {
    const out = renderTask(snapshot({ status: "cancelled", completedAt: 1_700_000_007 }));
    expect(out).toMatchObject({ completed: 1_700_000_007, actual_time: 7 });
    expect(out).not.toHaveProperty("result");
    expect(out).not.toHaveProperty("error");
  });

  it("GET bodies carry error {code, message, type} without param", () => {
    const out = renderTask(
      snapshot({
        status: "failed",
        completedAt: 1_700_000_001,
        error: failureError("upstream_timeout"),
      }),
    );
    expect(out.error).toEqual({
      code: "upstream_timeout",
      message: FAILURE_MESSAGES.upstream_timeout.en,
      type: "bad_gateway",
    });
  });

  it("webhook bodies carry error.param, a string, empty when no field is to blame (issue 26, item 11)", () => {
    const failed = snapshot({ status: "failed", completedAt: 1_700_000_001 });
    const none = renderTask(
      { ...failed, error: failureError("upstream_timeout") },
      { webhook: true },
    );
    expect(none.error).toHaveProperty("param", "");
    const named = renderTask(
      {
        ...failed,
        error: { code: 400, message: "bad", type: "invalid_request_error", param: "prompt" },
      },
      { webhook: true },
    );
    expect(named.error?.param).toBe("prompt");
  });

  it("language applies to error.message only", () => {
    const failed = snapshot({
      status: "failed",
      completedAt: 1_700_000_001,
      error: failureError("cancelled"),
    });
    const out = renderTask(failed, { language: " ZH " });
    expect(out.error?.message).toBe(FAILURE_MESSAGES.cancelled.zh);
    const { error: _a, ...restZh } = out;
    const { error: _b, ...restEn } = renderTask(failed);
    expect(restZh).toEqual(restEn);
  });

  it("an unsupported language keeps the original message", () => {
    const failed = snapshot({
      status: "failed",
      completedAt: 1_700_000_001,
      error: failureError("cancelled"),
    });
    expect(renderTask(failed, { language: "zh-CN" }).error?.message).toBe(
      FAILURE_MESSAGES.cancelled.en,
    );
  });

  it("a finished snapshot missing its data still renders a valid Task", () => {
    for (const status of ["completed", "failed", "cancelled"] as const) {
      const out = renderTask(snapshot({ status }));
      expect(taskResourceSchema.safeParse(out).success).toBe(true);
      expect(out.actual_time).toBe(0);
    }
    expect(renderTask(snapshot({ status: "completed" })).result).toEqual({});
    expect(renderTask(snapshot({ status: "failed" })).error?.code).toBe("generation_failed");
  });

  it("clamps progress to 0..100 whole numbers and a clock that ran backwards to actual_time 0", () => {
    expect(renderTask(snapshot({ progress: 150 })).progress).toBe(100);
    expect(renderTask(snapshot({ progress: -3 })).progress).toBe(0);
    expect(renderTask(snapshot({ progress: 33.6 })).progress).toBe(34);
    const out = renderTask(snapshot({ status: "cancelled", completedAt: 1_600_000_000 }));
    expect(out.actual_time).toBe(0);
  });

  const media = fc.record({
    url: fc.array(fc.webUrl(), { maxLength: 3 }),
    expires_at: fc.nat({ max: 4_000_000_000 }),
  });
  const arbitrarySnapshot: fc.Arbitrary<TaskSnapshot> = fc.record(
    {
      id: fc.string({ minLength: 1 }),
      status: fc.constantFrom(...taskStatuses),
      progress: fc.double(),
      createdAt: fc.double({ min: -1e3, max: 4e9 }),
      completedAt: fc.double({ min: -1e3, max: 4e9 }),
      estimatedTime: fc.double(),
      cost: fc.double(),
      creditsCost: fc.double(),
      result: fc.record(
        { images: fc.array(media), videos: fc.array(media), audios: fc.array(media) },
        { requiredKeys: [] },
      ),
      error: fc.record(
        {
          code: fc.oneof(fc.integer(), fc.double(), fc.string()),
          message: fc.string(),
          type: fc.string(),
          param: fc.option(fc.string(), { nil: null }),
        },
        { requiredKeys: ["code", "message", "type"] },
      ),
    },
    {
      requiredKeys: [
        "id",
        "status",
        "progress",
        "createdAt",
        "estimatedTime",
        "cost",
        "creditsCost",
      ],
    },
  );

  it("property: renderTask output always passes taskResourceSchema", () => {
    fc.assert(
      fc.property(
        arbitrarySnapshot,
        fc.option(fc.string(), { nil: undefined }),
        fc.boolean(),
        (task, language, webhook) => {
          const options = language === undefined ? { webhook } : { language, webhook };
          const parsed = taskResourceSchema.safeParse(renderTask(task, options));
          expect(parsed.error?.issues ?? []).toEqual([]);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("renderSubmission", () => {
  it("is the API reference's acknowledgement {code: 200, data: [{status: submitted, task_id}]}", () => {
    expect(renderSubmission("task_9")).toEqual({
      code: 200,
      data: [{ status: "submitted", task_id: "task_9" }],
    });
  });
});
