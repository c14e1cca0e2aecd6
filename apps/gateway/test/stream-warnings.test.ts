import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, eventually, postJson, type Stack, startStack } from "./stack.ts";
import { NATIVE_PATH } from "./wire.ts";

// A translated stream's own warnings (what the client's encoder dropped after the headers went)
// reach an SSE client as the comment that ends the stream, and the request log in every case.

const BARE = { ...auth(), "x-interlingua-envelope": "bare" };
const COMMENT = /\n: x-interlingua-warnings: ([^\n]*)\n\n$/;

describe("a stream's own warnings", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  const chat = (model: string) =>
    postJson(
      `${stack.gateway.url}/v1/chat/completions`,
      {
        model,
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: "user", content: "hi" }],
      },
      BARE,
    );

  it("end an SSE stream as a comment, after its last frame", async () => {
    const reply = await chat("txtB-sonnet-4-6");
    expect(reply.status).toBe(200);
    // Anthropic's usage names its inference geography, which chat usage cannot hold.
    expect(reply.text).toMatch(COMMENT);
    expect(reply.text.match(COMMENT)?.[1]).toContain("usage.inferenceGeo=dropped");
    expect(reply.text.indexOf("data: [DONE]")).toBeLessThan(reply.text.search(COMMENT));
  });

  it("are not written when nothing was lost", async () => {
    const reply = await chat("txtA-5");
    expect(reply.status).toBe(200);
    expect(reply.text).not.toContain("x-interlingua-warnings");
  });

  it.each([false, true])(
    "are logged only for a native stream (SSE %s): Gemini's clients read no comments",
    async (sse) => {
      const reply = await postJson(
        `${stack.gateway.url}${NATIVE_PATH("txtB-sonnet-4-6", true, sse)}`,
        { contents: [{ role: "user", parts: [{ text: "hi" }] }] },
        BARE,
      );
      expect(reply.status).toBe(200);
      expect(reply.text).not.toContain("x-interlingua-warnings");
      if (!sse) JSON.parse(reply.text);
      const id = reply.headers.get("x-request-id");
      await eventually(() =>
        stack.logs().some((l) => l["requestId"] === id && l["streamWarnings"]),
      );
      const line = stack.logs().find((l) => l["requestId"] === id && l["streamWarnings"]);
      expect(JSON.stringify(line?.["streamWarnings"])).toContain("inferenceGeo");
    },
  );
});
