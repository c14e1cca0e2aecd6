import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canTransition, taskTransitions } from "./task-state-machine.js";
import { isTerminal, type TaskStatus, taskStatuses } from "./task-status.js";

const status = fc.constantFrom(...taskStatuses);

describe("task states", () => {
  it("completed, failed and cancelled are terminal; pending and processing are not", () => {
    expect(taskStatuses.filter(isTerminal)).toEqual(["completed", "failed", "cancelled"]);
  });

  const legal: [TaskStatus, TaskStatus][] = [
    ["pending", "processing"],
    ["pending", "failed"],
    ["pending", "cancelled"],
    ["processing", "processing"],
    ["processing", "completed"],
    ["processing", "failed"],
    ["processing", "cancelled"],
  ];
  it.each(legal)("%s -> %s is allowed", (from, to) => {
    expect(canTransition(from, to)).toBe(true);
  });

  it("every other pair is refused (exactly the seven moves above exist)", () => {
    const allowed = taskStatuses.flatMap((from) =>
      taskStatuses.filter((to) => canTransition(from, to)).map((to) => [from, to]),
    );
    expect(allowed).toEqual(legal);
  });

  it("pending -> completed is refused: a task is processed before it completes", () => {
    expect(canTransition("pending", "completed")).toBe(false);
  });

  it.each(["completed", "failed", "cancelled"] as const)("%s never changes", (from) => {
    expect(taskTransitions[from]).toEqual([]);
    for (const to of taskStatuses) expect(canTransition(from, to)).toBe(false);
  });

  it("property: no path of events leaves a terminal state", () => {
    fc.assert(
      fc.property(fc.array(status, { maxLength: 40 }), (events) => {
        let current: TaskStatus = "pending";
        let finishedAs: TaskStatus | undefined;
        for (const event of events) {
          if (canTransition(current, event)) current = event;
          if (finishedAs !== undefined) expect(current).toBe(finishedAs);
          if (isTerminal(current)) finishedAs ??= current;
        }
      }),
    );
  });

  it("property: every state reached from pending is reachable only through legal moves", () => {
    fc.assert(
      fc.property(fc.array(status, { maxLength: 20 }), (events) => {
        let current: TaskStatus = "pending";
        for (const event of events) {
          const before: TaskStatus = current;
          if (canTransition(current, event)) current = event;
          if (current !== before) expect(taskTransitions[before]).toContain(current);
        }
      }),
    );
  });
});
