import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseMessagesRequest } from "./parse-messages-request.js";
import { renderMessagesRequest } from "./render-messages-request.js";

// What Claude Code really sent through the gateway (recorded by `pnpm test:clients`): system
// messages inside `messages`, adaptive thinking, context management; every body parses.
const recorded = JSON.parse(
  readFileSync(new URL("../../../fixtures/clients/claude.requests.json", import.meta.url), "utf8"),
) as { requests: { body: Record<string, unknown> }[] };

describe("Claude Code's recorded requests", () => {
  it("parse; the system messages join the system text; the tool loop renders back", () => {
    expect(recorded.requests.length).toBeGreaterThanOrEqual(2);
    for (const { body } of recorded.requests) {
      const request = parseMessagesRequest(body);
      const inline = (body["messages"] as { role: string }[]).filter((m) => m.role === "system");
      expect(inline.length).toBeGreaterThan(0);
      expect(request.system.length).toBeGreaterThan(inline.length);
      const wire = renderMessagesRequest(request);
      expect(wire.messages.every((m) => m.role === "user" || m.role === "assistant")).toBe(true);
    }
    const last = parseMessagesRequest(recorded.requests.at(-1)?.body);
    expect(last.messages.some((m) => m.role === "tool")).toBe(true);
  });
});
