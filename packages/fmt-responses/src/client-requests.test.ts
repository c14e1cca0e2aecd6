import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { responses } from "./index.js";

// What Codex CLI really sent through the gateway (recorded by `pnpm test:clients`): every body
// parses, and renders back for the Responses API with its tools and items as they came.
const recorded = JSON.parse(
  readFileSync(new URL("../../../fixtures/clients/codex.requests.json", import.meta.url), "utf8"),
) as { requests: { body: Record<string, unknown> }[] };

describe("Codex CLI's recorded requests", () => {
  it("parse, and their tools (namespace and hosted included) render back unchanged", () => {
    expect(recorded.requests.length).toBeGreaterThanOrEqual(2);
    for (const { body } of recorded.requests) {
      const request = responses.request.parse(body);
      const wire = responses.request.render(request) as Record<string, unknown>;
      expect(wire["tools"]).toEqual(body["tools"]);
      const types = (wire["input"] as { type?: string }[]).map((i) => i.type ?? "message");
      const sent = (body["input"] as { type?: string }[]).map((i) => i.type ?? "message");
      // Every function call, output and reasoning item goes back (system items may merge).
      for (const kind of ["function_call", "function_call_output", "reasoning"]) {
        expect(types.filter((t) => t === kind).length).toBe(sent.filter((t) => t === kind).length);
      }
    }
  });
});
