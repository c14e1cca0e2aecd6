import { describe, expect, it } from "vitest";
import { type TaskResource, taskResourceSchema } from "./task-resource.js";

const base = {
  id: "task_1",
  cost: 0.5,
  credits_cost: 5,
  progress: 40,
  created: 1_700_000_000,
  estimated_time: 60,
};
const media = { url: ["https://gw.example/files/v.mp4"], expires_at: 1_700_086_400 };
const finished = { completed: 1_700_000_090, actual_time: 90 };

const valid: Record<string, TaskResource> = {
  pending: { ...base, status: "pending", progress: 0 },
  processing: { ...base, status: "processing" },
  completed: {
    ...base,
    status: "completed",
    progress: 100,
    result: { videos: [media] },
    ...finished,
  },
  failed: {
    ...base,
    status: "failed",
    ...finished,
    error: { code: "generation_failed", message: "The generation failed.", type: "server_error" },
  },
  cancelled: { ...base, status: "cancelled", ...finished },
};

const issuePaths = (value: unknown) => {
  const parsed = taskResourceSchema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.path.join("."));
};

describe("taskResourceSchema (docs/api-reference.md Task)", () => {
  it.each(Object.entries(valid))("accepts a well-formed %s task", (_, task) => {
    expect(issuePaths(task)).toEqual([]);
  });

  it("result only when completed: refused on processing", () => {
    expect(issuePaths({ ...valid["processing"], result: { videos: [media] } })).toEqual(["result"]);
  });
  it("result is required when completed", () => {
    const { result: _, ...rest } = valid["completed"]!;
    expect(issuePaths(rest)).toEqual(["result"]);
  });
  it("error only when failed: refused on completed", () => {
    const error = { code: 500, message: "x", type: "server_error" };
    expect(issuePaths({ ...valid["completed"], error })).toEqual(["error"]);
  });
  it("error is required when failed", () => {
    const { error: _, ...rest } = valid["failed"]!;
    expect(issuePaths(rest)).toEqual(["error"]);
  });
  it("completed and actual_time only when finished: refused on pending", () => {
    expect(issuePaths({ ...valid["pending"], ...finished })).toEqual(["completed", "actual_time"]);
  });
  it("completed and actual_time are required on every finished state", () => {
    for (const status of ["completed", "failed", "cancelled"]) {
      const { completed: _c, actual_time: _a, ...rest } = valid[status]!;
      expect(issuePaths(rest)).toEqual(["completed", "actual_time"]);
    }
  });
  it("actual_time = completed - created", () => {
    expect(issuePaths({ ...valid["cancelled"], actual_time: 89 })).toEqual(["actual_time"]);
  });
  it("completed is not before created", () => {
    expect(
      issuePaths({ ...valid["cancelled"], completed: 1, actual_time: 1 - base.created }),
    ).toContain("completed");
  });
  it("a completed task is at progress 100", () => {
    expect(issuePaths({ ...valid["completed"], progress: 99 })).toEqual(["progress"]);
  });
  it("progress is an integer 0 to 100", () => {
    expect(issuePaths({ ...valid["processing"], progress: 101 })).toEqual(["progress"]);
    expect(issuePaths({ ...valid["processing"], progress: 40.5 })).toEqual(["progress"]);
  });
  it("created, completed and expires_at are integer Unix seconds", () => {
    expect(issuePaths({ ...valid["processing"], created: 1.5 })).toEqual(["created"]);
    const bad = { ...valid["completed"], result: { images: [{ ...media, expires_at: "soon" }] } };
    expect(issuePaths(bad)).toEqual(["result.images.0.expires_at"]);
  });
  it("result.images[].url is an array of strings", () => {
    const bad = { ...valid["completed"], result: { images: [{ ...media, url: "https://x" }] } };
    expect(issuePaths(bad)).toEqual(["result.images.0.url"]);
  });
  it("error.param may be a string or null (webhook bodies)", () => {
    const error = { code: 400, message: "m", type: "invalid_request_error" };
    expect(issuePaths({ ...valid["failed"], error: { ...error, param: null } })).toEqual([]);
    expect(issuePaths({ ...valid["failed"], error: { ...error, param: "prompt" } })).toEqual([]);
  });
  it("unknown fields are refused", () => {
    expect(issuePaths({ ...valid["pending"], extra: 1 })).toEqual([""]);
  });
  it("status must be one of the five states", () => {
    expect(issuePaths({ ...valid["pending"], status: "success" })).toEqual(["status"]);
  });
});
