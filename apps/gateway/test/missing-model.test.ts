import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, type Stack, startStack } from "./stack.ts";

// One zod-issue helper (@interlingua/errors `invalidFromZod`) words every schema 400: a missing
// `model` reads the same on every JSON endpoint, whatever its envelope.
describe("a missing model is worded the same on every endpoint", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  const bodies: Record<string, Record<string, unknown>> = {
    "/v1/chat/completions": { messages: [{ role: "user", content: "hi" }] },
    "/v1/messages": { max_tokens: 8, messages: [{ role: "user", content: "hi" }] },
    "/v1/responses": { input: "hi" },
    "/v1/videos/generations": { prompt: "a cat" },
    "/v1/images/generations": { prompt: "a cat" },
    "/v1/audio/speech": { input: "hello", voice: "alloy" },
  };

  for (const [path, body] of Object.entries(bodies)) {
    it(`${path}: 400 naming model`, async () => {
      const res = await postJson(stack.gateway.url + path, body);
      expect(res.status).toBe(400);
      const error = (res.json.error ?? res.json) as { message?: string; param?: string };
      expect(error.message).toMatch(/^model: field required/);
      if (error.param !== undefined) expect(error.param).toBe("model");
    });
  }
});
