import { describe, expect, it } from "vitest";
import { FIXED_CREATED, post, useSim } from "../testing/http.ts";

const sim = useSim();
const AUTH = { authorization: "Bearer sk-test" };
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47];

const generate = (body: Record<string, unknown>) =>
  post(`${sim().url}/v1/images/generations`, body, AUTH);

describe("POST /v1/images/generations", () => {
  it("returns base64 PNGs for GPT image models, with the resolved settings and token usage", async () => {
    const response = await generate({ model: "gpt-image-1", prompt: "a red fox", n: 2 });
    const body = await response.json();
    expect(body).toEqual({
      created: FIXED_CREATED,
      background: "opaque",
      data: [{ b64_json: expect.any(String) }, { b64_json: expect.any(String) }],
      output_format: "png",
      quality: "medium",
      size: "1024x1024",
      usage: {
        input_tokens: 3,
        input_tokens_details: { image_tokens: 0, text_tokens: 3 },
        output_tokens: 2 * 1056,
        total_tokens: 3 + 2 * 1056,
      },
    });
    const png = Buffer.from(body.data[0].b64_json, "base64");
    expect([...png.subarray(0, 4)]).toEqual(PNG_MAGIC);
    expect(body.data[0].b64_json).not.toBe(body.data[1].b64_json);
  });

  it("prices output tokens by quality and shape", async () => {
    const body = await (
      await generate({ model: "gpt-image-1.5", prompt: "tall", quality: "high", size: "1024x1536" })
    ).json();
    expect(body).toMatchObject({ quality: "high", size: "1024x1536" });
    expect(body.usage.output_tokens).toBe(6240);
  });

  it("answers DALL-E 3 with a URL that serves the image, and a revised prompt", async () => {
    const body = await (await generate({ model: "dall-e-3", prompt: "a fox [[think]]" })).json();
    expect(body).toEqual({
      created: FIXED_CREATED,
      data: [
        { url: expect.stringMatching(/\/files\/img_[0-9a-f]{32}\.png$/), revised_prompt: "a fox" },
      ],
    });
    const image = await fetch(body.data[0].url);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect([...new Uint8Array(await image.arrayBuffer()).subarray(0, 4)]).toEqual(PNG_MAGIC);
    const b64 = await (
      await generate({ model: "dall-e-2", prompt: "x", response_format: "b64_json" })
    ).json();
    expect(b64.data).toEqual([{ b64_json: expect.any(String) }]);
  });

  it("refuses response_format on GPT image models, as the recorded upstream does", async () => {
    const response = await generate({
      model: "gpt-image-1",
      prompt: "x",
      response_format: "b64_json",
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        message: "Unknown parameter: 'response_format'.",
        type: "invalid_request_error",
        param: "response_format",
        code: "unknown_parameter",
      },
    });
  });

  it.each([
    [{ model: "gpt-image-1" }, "prompt", "missing_required_parameter"],
    [{ model: "gpt-image-1", prompt: "x", n: 11 }, "n", "integer_above_max_value"],
    [{ model: "gpt-image-1", prompt: "x", n: 0 }, "n", "integer_below_min_value"],
    [{ model: "gpt-image-1", prompt: "x", quality: "hd" }, "quality", "invalid_value"],
    [{ model: "gpt-image-1", prompt: "x", size: "big" }, "size", "invalid_value"],
    [{ model: "gpt-image-1", prompt: "x", style: "vivid" }, "style", "unknown_parameter"],
    [{ model: "dall-e-3", prompt: "x", size: "512x512" }, "size", "invalid_value"],
    [{ model: "dall-e-3", prompt: "x", background: "opaque" }, "background", "unknown_parameter"],
  ])("refuses %o with a 400 naming %s", async (body, param, code) => {
    const response = await generate(body);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({
      type: "invalid_request_error",
      param,
      code,
    });
  });

  it("DALL-E 3 makes one image per request", async () => {
    const response = await generate({ model: "dall-e-3", prompt: "x", n: 2 });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe("You must provide n=1 for this model.");
  });

  it("[[fail]] is a 500 server error", async () => {
    const response = await generate({ model: "gpt-image-1", prompt: "x [[fail]]" });
    expect(response.status).toBe(500);
    expect((await response.json()).error).toMatchObject({ type: "server_error", code: null });
  });

  it("[[safety]] is the moderation refusal: moderation_blocked for GPT image, content_policy_violation for DALL-E", async () => {
    const gpt = await generate({ model: "gpt-image-1", prompt: "x [[safety]]" });
    expect(gpt.status).toBe(400);
    const requestId = gpt.headers.get("x-request-id");
    expect(await gpt.json()).toEqual({
      error: {
        message: `Your request was rejected by the safety system. If you believe this is an error, contact us at help.openai.com and include the request ID ${requestId}.`,
        type: "image_generation_user_error",
        param: null,
        code: "moderation_blocked",
      },
    });
    const dalle = await generate({ model: "dall-e-3", prompt: "x [[safety]]" });
    expect(dalle.status).toBe(400);
    expect((await dalle.json()).error).toMatchObject({
      type: "invalid_request_error",
      code: "content_policy_violation",
    });
  });
});
