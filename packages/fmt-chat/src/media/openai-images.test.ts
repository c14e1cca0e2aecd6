import { readFileSync } from "node:fs";
import { fc, nonEmptyText } from "@interlingua/core-types/testing";
import { parseOpenAIError } from "@interlingua/errors";
import { describe, expect, it } from "vitest";
import {
  OPENAI_IMAGE_MAX_N,
  openAIImageBackgrounds,
  openAIImageOutputFormats,
  openAIImageQualities,
  openAIImageRequestSchema,
  openAIImageResponseFormats,
  openAIImageResponseSchema,
  openAIImageSizes,
} from "./openai-images-api.js";
import {
  type OpenAIImageRequest,
  parseOpenAIImageRequest,
  renderOpenAIImageRequest,
} from "./openai-images-request.js";
import {
  OPENAI_IMAGE_LIMITS,
  type OpenAIImageResult,
  parseOpenAIImageResponse,
} from "./openai-images-response.js";
import { openAIImageSize } from "./openai-images-size.js";

const fixtures = new URL("../../test/fixtures/openai-images/", import.meta.url);
const recorded = (file: string): unknown =>
  JSON.parse(readFileSync(new URL(file, fixtures), "utf8"));

const imageRequest: fc.Arbitrary<OpenAIImageRequest> = fc.record(
  {
    model: fc.constantFrom("gpt-image-1", "txtA-image-2", "dall-e-3"),
    prompt: nonEmptyText(120),
    n: fc.integer({ min: 1, max: OPENAI_IMAGE_MAX_N }),
    size: fc.constantFrom(...openAIImageSizes),
    quality: fc.constantFrom(...openAIImageQualities),
    background: fc.constantFrom(...openAIImageBackgrounds),
    outputFormat: fc.constantFrom(...openAIImageOutputFormats),
    responseFormat: fc.constantFrom(...openAIImageResponseFormats),
  },
  { requiredKeys: ["model", "prompt"] },
);

describe("renderOpenAIImageRequest", () => {
  it("renders a body the schema accepts and that reads back as the request (law 2)", () => {
    fc.assert(
      fc.property(imageRequest, (request) => {
        const body = renderOpenAIImageRequest(request);
        expect(openAIImageRequestSchema.safeParse(body).success).toBe(true);
        expect(parseOpenAIImageRequest(JSON.parse(JSON.stringify(body)))).toEqual(request);
      }),
    );
  });

  it("writes snake_case and leaves unset fields out", () => {
    expect(
      renderOpenAIImageRequest({
        model: "gpt-image-1",
        prompt: "a sea otter",
        n: 2,
        size: "1536x1024",
        quality: "high",
        background: "transparent",
        outputFormat: "webp",
      }),
    ).toEqual({
      model: "gpt-image-1",
      prompt: "a sea otter",
      n: 2,
      size: "1536x1024",
      quality: "high",
      background: "transparent",
      output_format: "webp",
    });
    expect(renderOpenAIImageRequest({ model: "m", prompt: "p" })).toEqual({
      model: "m",
      prompt: "p",
    });
  });
});

describe("parseOpenAIImageRequest", () => {
  it.each([
    ["n above the bound", { model: "m", prompt: "p", n: 11 }, "n"],
    ["a size OpenAI does not take", { model: "m", prompt: "p", size: "16:9" }, "size"],
    ["an empty prompt", { model: "m", prompt: "" }, "prompt"],
    ["an unknown parameter", { model: "m", prompt: "p", style: "vivid" }, undefined],
    ["no model", { prompt: "p" }, "model"],
  ])("refuses %s with a 400", (_case, body, param) => {
    let thrown: unknown;
    try {
      parseOpenAIImageRequest(body);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ status: 400 });
    if (param !== undefined) expect(thrown).toMatchObject({ param });
  });
});

describe("parseOpenAIImageResponse on recorded replies (vercel/ai, Apache-2.0)", () => {
  it("openai-image: two images, the first with its revised prompt", () => {
    const reply = recorded("openai-image.json") as {
      data: [{ b64_json: string; revised_prompt: string }, { b64_json: string }];
    };
    const [first, second] = reply.data;
    expect(first.revised_prompt).toMatch(/^A small and adorable baby sea otter/);
    expect(parseOpenAIImageResponse(reply)).toEqual({
      created: 1770935200,
      images: [
        { b64Json: first.b64_json, revisedPrompt: first.revised_prompt },
        { b64Json: second.b64_json },
      ],
    } satisfies OpenAIImageResult);
  });

  it("openai-image-edit: the echoed settings are kept", () => {
    const reply = recorded("openai-image-edit.json") as { data: [{ b64_json: string }] };
    expect(parseOpenAIImageResponse(reply)).toEqual({
      created: 1770935251,
      images: [{ b64Json: reply.data[0].b64_json }],
      background: "opaque",
      outputFormat: "png",
      quality: "high",
      size: "1024x1024",
    });
  });

  it("gpt-image-response-format-error: an error body is not a reply (502); errors parse it", () => {
    const body = recorded("gpt-image-response-format-error.json");
    expect(() => parseOpenAIImageResponse(body)).toThrow(expect.objectContaining({ status: 502 }));
    expect(parseOpenAIError(400, body)).toMatchObject({ status: 400, param: "response_format" });
  });
});

describe("parseOpenAIImageResponse rules", () => {
  it("reads usage with its input details", () => {
    expect(
      parseOpenAIImageResponse({
        created: 1,
        data: [{ url: "https://cdn.example/x.png" }],
        usage: {
          input_tokens: 50,
          output_tokens: 4160,
          total_tokens: 4210,
          input_tokens_details: { text_tokens: 40, image_tokens: 10 },
        },
      }),
    ).toEqual({
      created: 1,
      images: [{ url: "https://cdn.example/x.png" }],
      usage: {
        inputTokens: 50,
        outputTokens: 4160,
        totalTokens: 4210,
        inputTokensDetails: { textTokens: 40, imageTokens: 10 },
      },
    });
  });

  it("keeps at most the most a request may ask for, and caps revised prompts", () => {
    const result = parseOpenAIImageResponse({
      created: 1,
      data: Array.from({ length: 300 }, (_, i) => ({
        b64_json: `AA${i}`,
        revised_prompt: "r".repeat(40_000),
      })),
    });
    expect(result.images).toHaveLength(OPENAI_IMAGE_LIMITS.images);
    expect(result.images[9]?.b64Json).toBe("AA9");
    expect(result.images[0]?.revisedPrompt).toHaveLength(OPENAI_IMAGE_LIMITS.revisedPrompt);
  });

  it.each([
    ["an image with neither b64_json nor url", { created: 1, data: [{ revised_prompt: "x" }] }],
    ["no created", { data: [] }],
    ["data not a list", { created: 1, data: {} }],
    ["a url beyond the bound", { created: 1, data: [{ url: `https://x/${"a".repeat(9000)}` }] }],
    ["usage without totals", { created: 1, data: [], usage: { input_tokens: 1 } }],
  ])("refuses %s with a 502", (_case, body) => {
    expect(() => parseOpenAIImageResponse(body)).toThrow(expect.objectContaining({ status: 502 }));
  });

  it("parses every schema-valid reply without loss below the bounds", () => {
    const datum = fc.record(
      { b64_json: fc.base64String({ minLength: 4, maxLength: 40 }), revised_prompt: fc.string() },
      { requiredKeys: ["b64_json"] },
    );
    fc.assert(
      fc.property(fc.nat(), fc.array(datum, { maxLength: OPENAI_IMAGE_MAX_N }), (created, data) => {
        const reply = { created, data };
        expect(openAIImageResponseSchema.safeParse(reply).success).toBe(true);
        const parsed = parseOpenAIImageResponse(reply);
        expect(parsed.images.map((i) => i.b64Json)).toEqual(data.map((d) => d.b64_json));
        expect(parsed.images.map((i) => i.revisedPrompt)).toEqual(
          data.map((d) => d.revised_prompt),
        );
      }),
    );
  });
});

describe("openAIImageSize (the API reference size -> OpenAI size)", () => {
  it.each([
    ["1024x1024", "1024x1024"],
    ["1536x1024", "1536x1024"],
    ["1024x1536", "1024x1536"],
    ["auto", "auto"],
    ["AUTO", "auto"],
    ["1:1", "1024x1024"],
    ["16:9", "1536x1024"],
    ["9:16", "1024x1536"],
    ["3:2", "1536x1024"],
    ["4:3", "1536x1024"],
    ["6:5", "1024x1024"],
    ["21:9", "1536x1024"],
    ["1920x1080", "1536x1024"],
    ["512x512", "1024x1024"],
    [" 1080X1920 ", "1024x1536"],
  ])("%s -> %s", (size, expected) => {
    expect(openAIImageSize(size)).toBe(expected);
  });

  it.each(["", "big", "0:1", "16:0", "5:1", "1x100", "16/9", "1:1:1", "-1:1", "1.5:1", "123456x1"])(
    "%s -> undefined (the caller answers 400)",
    (size) => {
      expect(openAIImageSize(size)).toBeUndefined();
    },
  );

  it("always answers a size the request schema takes, or undefined", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 0, max: 5000 }),
        fc.boolean(),
        (w, h, colon) => {
          const size = openAIImageSize(colon ? `${w}:${h}` : `${w}x${h}`);
          if (size === undefined) return;
          expect(openAIImageSizes).toContain(size);
          const ratio = w / h;
          if (ratio > 1.3) expect(size).toBe("1536x1024");
          if (ratio < 1 / 1.3) expect(size).toBe("1024x1536");
        },
      ),
    );
  });
});
