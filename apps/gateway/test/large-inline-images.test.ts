import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, type Stack, startStack } from "./stack.ts";
import { png } from "./uploads-images.ts";
import { NATIVE_PATH } from "./wire.ts";

// A photo sent inline is megabytes of base64, full of digit-e-digit runs that look like the
// start of an exponent: the body is still read as JSON (no parser runs out of stack on it), and
// it reaches the upstream whole. Before, a body with an image of about 5 MB or more was refused
// as "not valid JSON".

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

/** About 8 MB of image: a PNG's first bytes, then random ones (the upstream reads no pixels). */
const IMAGE = Buffer.concat([png(), randomBytes(8_000_000)]).toString("base64");

describe("a request with a large inline image", () => {
  it.each(["txtA-5", "txtB-sonnet-4-6"])(
    "chat to %s: answered, the image sent whole",
    async (model) => {
      const reply = await postJson(`${stack.gateway.url}/v1/chat/completions`, {
        model,
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "what is this?" },
              { type: "image_url", image_url: { url: `data:image/png;base64,${IMAGE}` } },
            ],
          },
        ],
      });
      expect(reply.status, reply.text.slice(0, 300)).toBe(200);
      const sent = JSON.stringify(stack.sim.requests.at(-1)?.body);
      expect(sent.includes(IMAGE)).toBe(true);
    },
  );

  it("native: answered, the image sent whole", async () => {
    const reply = await postJson(`${stack.gateway.url}${NATIVE_PATH("txtC-2.5-pro", false)}`, {
      contents: [
        {
          role: "user",
          parts: [
            { text: "what is this?" },
            { inlineData: { mimeType: "image/png", data: IMAGE } },
          ],
        },
      ],
    });
    expect(reply.status, reply.text.slice(0, 300)).toBe(200);
    expect(JSON.stringify(stack.sim.requests.at(-1)?.body).includes(IMAGE)).toBe(true);
  });
});
