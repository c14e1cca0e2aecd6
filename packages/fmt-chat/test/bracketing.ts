import type { StreamEvent } from "@interlingua/core-types";
import { expect } from "vitest";

/**
 * The canonical stream convention: every part opens once (part-start, tool-call-start or
 * redacted-thinking), its deltas come after the opening and before its single part-end.
 */
export function expectWellBracketed(events: readonly StreamEvent[]): void {
  const opened = new Set<string>();
  const closed = new Set<string>();
  for (const event of events) {
    if (!("index" in event)) continue;
    const key = `${event.alternative ?? 0}:${event.index}`;
    switch (event.type) {
      case "part-start":
      case "tool-call-start":
      case "redacted-thinking":
        expect(opened.has(key), `${key} opened twice`).toBe(false);
        opened.add(key);
        break;
      case "part-end":
        expect(opened.has(key), `${key} closed before it opened`).toBe(true);
        expect(closed.has(key), `${key} closed twice`).toBe(false);
        closed.add(key);
        break;
      default:
        expect(opened.has(key), `${event.type} at ${key} before its part opened`).toBe(true);
        expect(closed.has(key), `${event.type} at ${key} after its part closed`).toBe(false);
    }
  }
  expect([...closed].sort()).toEqual([...opened].sort());
}
