import { describe, expect, it } from "vitest";
import { isTerminalStreamEvent, terminalStreamEvent } from "./tables.js";

describe("resuming a Responses stream", () => {
  it("knows the events that end a stream", () => {
    for (const type of ["response.completed", "response.incomplete", "response.failed"]) {
      expect(isTerminalStreamEvent(type)).toBe(true);
    }
    for (const type of [
      "response.created",
      "response.in_progress",
      "response.queued",
      "error",
      1,
    ]) {
      expect(isTerminalStreamEvent(type)).toBe(false);
    }
  });

  it("says how a response ended, and nothing for a cancelled one", () => {
    const failed = { id: "resp_1", status: "failed", error: { code: "x", message: "y" } };
    expect(terminalStreamEvent(failed, 7)).toEqual({
      type: "response.failed",
      sequence_number: 7,
      response: failed,
    });
    expect(terminalStreamEvent({ status: "completed" }, 0)?.["type"]).toBe("response.completed");
    expect(terminalStreamEvent({ status: "cancelled" }, 3)).toBeUndefined();
    expect(terminalStreamEvent({ status: "in_progress" }, 3)).toBeUndefined();
  });
});
