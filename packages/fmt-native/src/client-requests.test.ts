import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseNativeRequest } from "./parse-native-request.js";

// What Gemini CLI really sent through the gateway (recorded by `pnpm test:clients`, Anthropic
// behind it): every body parses; the second turn kept only the visible call and its signature,
// which carries the thinking Anthropic signed (core-types moved-signature.ts).
const recorded = JSON.parse(
  readFileSync(new URL("../../../fixtures/clients/gemini.requests.json", import.meta.url), "utf8"),
) as { requests: { path: string; body: Record<string, unknown> }[] };

describe("Gemini CLI's recorded requests", () => {
  it("parse, and the call's signature carries the thinking", () => {
    expect(recorded.requests.length).toBeGreaterThanOrEqual(2);
    for (const { path, body } of recorded.requests) {
      const model = decodeURIComponent(path.split("/models/")[1]?.split(":")[0] ?? "");
      expect(parseNativeRequest({ ...body, model }).model).toBe(model);
    }
    const second = recorded.requests[1];
    const model = decodeURIComponent(second?.path.split("/models/")[1]?.split(":")[0] ?? "");
    const request = parseNativeRequest({ ...second?.body, model });
    const turn = request.messages.find((m) => m.role === "assistant");
    const call = turn?.parts.find((p) => p.type === "tool-call");
    expect(call?.type === "tool-call" && call.signature).toMatch(/^interlingua\.thought:/);
  });
});
