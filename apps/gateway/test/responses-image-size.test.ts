import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, postJson, type Stack, startStack } from "./stack.ts";

// docs/api-reference.md Limits: an image in a responses request is at most 20 MB (20971520
// bytes). An inline one past it is refused naming its field, stored or not; one within it is
// stored (responses.max_bytes holds any body the gateway reads) and its conversation continued.

const MAX_IMAGE_BYTES = 20_971_520;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A data URI of a PNG-headed image of `bytes` bytes. */
const pngDataUri = (bytes: number): string => {
  const image = Buffer.alloc(bytes);
  PNG_SIGNATURE.copy(image);
  return `data:image/png;base64,${image.toString("base64")}`;
};

const withImage = (imageUrl: string, extra: Record<string, unknown> = {}) => ({
  model: "txtA-5",
  input: [
    { role: "user", content: "first turn" },
    {
      role: "user",
      content: [
        { type: "input_text", text: "what is in this picture?" },
        { type: "input_image", image_url: imageUrl },
      ],
    },
  ],
  ...extra,
});

describe("images in a responses request", () => {
  let stack: Stack;
  beforeAll(async () => {
    // A continuation sends the stored 28 MB image on to the simulator: on a busy machine its
    // reply takes longer than the stack's 2 s default.
    stack = await startStack(
      {},
      { timeouts: { headersMs: 30_000, bodyMs: 30_000, connectMs: 5000 } },
    );
  });
  afterAll(() => stack.close());
  const url = () => `${stack.gateway.url}/v1/responses`;

  it("an inline image over 20 MB is a 400 naming its image_url, stored or not", async () => {
    const oversized = pngDataUri(MAX_IMAGE_BYTES + 1);
    for (const store of [false, true]) {
      const res = await postJson(url(), withImage(oversized, { store }), auth());
      expect(res.status).toBe(400);
      expect(res.json.error).toMatchObject({
        code: 400,
        type: "invalid_request_error",
        param: "input[1].content[1].image_url",
      });
      expect(res.json.error.message).toBe(
        `input[1].content[1].image_url: the image is ${MAX_IMAGE_BYTES + 1} bytes, more than an image in a responses request may be (20971520, 20 MB)`,
      );
    }
  });

  it("a stored request with an image just under 20 MB succeeds and is continued", async () => {
    const bare = { ...auth(), "x-interlingua-envelope": "bare" };
    const first = await postJson(url(), withImage(pngDataUri(MAX_IMAGE_BYTES - 1024)), bare);
    expect(first.status, first.text.slice(0, 300)).toBe(200);
    expect(first.json).toMatchObject({ status: "completed", store: true });
    const next = await postJson(
      url(),
      { model: "txtA-5", input: "and the colours?", previous_response_id: first.json.id },
      bare,
    );
    // A failure names its cause, which only the log line has.
    const failed = () =>
      `${next.text.slice(0, 300)} ${JSON.stringify(stack.logs().filter((line) => line["status"] === 502))}`;
    expect(next.status, failed()).toBe(200);
    expect(next.json).toMatchObject({ previous_response_id: first.json.id, store: true });
    const items = await fetch(`${url()}/${next.json.id}/input_items?order=asc`, { headers: bare });
    const types = ((await items.json()).data as { content?: unknown }[]).map((item) =>
      Array.isArray(item.content) ? item.content.map((part) => part.type) : item.content,
    );
    expect(types).toContainEqual(["input_text", "input_image"]);
  });
});
