import { readFileSync } from "node:fs";
import { fc } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { geminiImageRequest } from "../../test/veo-arbitraries.js";
import { geminiImageRequestSchema, geminiImageResponseSchema } from "./gemini-image-api.js";
import { geminiImageShape } from "./gemini-image-size.js";
import { GEMINI_IMAGE_LIMITS, parseGeminiImageResponse } from "./parse-gemini-image-response.js";
import {
  geminiImageRequestFromWire,
  renderGeminiImageRequest,
} from "./render-gemini-image-request.js";

const fixtures = new URL("../../test/fixtures/gemini-image/", import.meta.url);
const recorded = (file: string): unknown =>
  JSON.parse(readFileSync(new URL(file, fixtures), "utf8"));

describe("renderGeminiImageRequest", () => {
  it("renders a body the schema accepts and that reads back as the request (law 2)", () => {
    fc.assert(
      fc.property(geminiImageRequest, (request) => {
        const wire = geminiImageRequestSchema.parse(renderGeminiImageRequest(request));
        expect(geminiImageRequestFromWire(wire)).toEqual(request);
      }),
    );
  });

  it("asks for TEXT and IMAGE, text first then the images, imageConfig only when set", () => {
    const png = { mimeType: "image/png", data: "iVBORw0KGgo=" };
    expect(
      renderGeminiImageRequest({
        prompt: "a red fox",
        images: [png],
        aspectRatio: "16:9",
        imageSize: "2K",
      }),
    ).toEqual({
      contents: [{ role: "user", parts: [{ text: "a red fox" }, { inlineData: png }] }],
      generationConfig: {
        responseModalities: ["TEXT", "IMAGE"],
        imageConfig: { aspectRatio: "16:9", imageSize: "2K" },
      },
    });
    expect(renderGeminiImageRequest({ prompt: "x" })).toEqual({
      contents: [{ role: "user", parts: [{ text: "x" }] }],
      generationConfig: { responseModalities: ["TEXT", "IMAGE"] },
    });
  });

  it("the schema refuses sizes and ratios the upstream does not document", () => {
    const body = (imageConfig: object) => ({
      contents: [{ role: "user", parts: [{ text: "x" }] }],
      generationConfig: { responseModalities: ["IMAGE"], imageConfig },
    });
    expect(geminiImageRequestSchema.safeParse(body({ imageSize: "2k" })).success).toBe(false);
    expect(geminiImageRequestSchema.safeParse(body({ aspectRatio: "2:1" })).success).toBe(false);
    expect(geminiImageRequestSchema.safeParse(body({ aspectRatio: "21:9" })).success).toBe(true);
  });
});

describe("parseGeminiImageResponse on recorded replies (vercel/ai, Apache-2.0)", () => {
  it("google-image-gemini-3.1-flash-image: one image, STOP, usage", () => {
    const reply = recorded("google-image-gemini-3.1-flash-image.json");
    expect(geminiImageResponseSchema.safeParse(reply).success).toBe(true);
    expect(parseGeminiImageResponse(reply)).toEqual({
      images: [{ mimeType: "image/jpeg", data: "<redacted live image data; length=439196>" }],
      text: "",
      finishReason: "STOP",
      usage: { inputTokens: 10, outputTokens: 1392, totalTokens: 1402 },
      modelVersion: "gemini-3.1-flash-image",
      responseId: "dTOras2iGqLc-sAPiO2BiAw",
    });
  });

  it("google-image-no-image-live: NO_IMAGE is a block that is not a policy one", () => {
    expect(parseGeminiImageResponse(recorded("google-image-no-image-live.json"))).toEqual({
      images: [],
      text: "",
      finishReason: "NO_IMAGE",
      blocked: { reason: "NO_IMAGE", stage: "output", policy: false },
      usage: { inputTokens: 9, outputTokens: 0, totalTokens: 9 },
      modelVersion: "gemini-3.1-flash-image-preview",
      responseId: "yzOraue2AfW1_PUPqru3sQY",
    });
  });

  it("issue-19758-image-prompt-block: a prompt block, no candidates", () => {
    expect(parseGeminiImageResponse(recorded("issue-19758-image-prompt-block.json"))).toEqual({
      images: [],
      text: "",
      blocked: { reason: "PROHIBITED_CONTENT", stage: "prompt", policy: true },
      usage: { inputTokens: 9, outputTokens: 0, totalTokens: 9 },
      modelVersion: "gemini-3.1-flash-image-preview",
      responseId: "FHGPatmJMfqI1MkP28uN-Qg",
    });
  });
});

describe("parseGeminiImageResponse rules", () => {
  const reply = (parts: object[], finishReason = "STOP", extra: object = {}) => ({
    candidates: [{ content: { role: "model", parts }, finishReason, ...extra }],
  });

  it("skips thought images and keeps text", () => {
    const result = parseGeminiImageResponse(
      reply([
        { inlineData: { mimeType: "image/png", data: "DRAFT" }, thought: true },
        { text: "Here is ", thought: true },
        { text: "Here is your fox." },
        { inlineData: { mimeType: "image/png", data: "FINAL" } },
      ]),
    );
    expect(result.images).toEqual([{ mimeType: "image/png", data: "FINAL" }]);
    expect(result.text).toBe("Here is your fox.");
    expect(result).not.toHaveProperty("blocked");
  });

  it.each([
    ["IMAGE_SAFETY", true],
    ["SAFETY", true],
    ["PROHIBITED_CONTENT", true],
    ["IMAGE_PROHIBITED_CONTENT", true],
    ["NO_IMAGE", false],
    ["IMAGE_OTHER", false],
  ])("finishReason %s -> blocked (policy %s), with its message", (reason, policy) => {
    const result = parseGeminiImageResponse(reply([], reason, { finishMessage: "m".repeat(5000) }));
    expect(result.blocked).toEqual({
      reason,
      stage: "output",
      policy,
      message: "m".repeat(GEMINI_IMAGE_LIMITS.message),
    });
  });

  it.each(["STOP", "MAX_TOKENS", "toString", "BLOCK_REASON_UNSPECIFIED"])(
    "finishReason %s is not a block",
    (reason) => {
      expect(parseGeminiImageResponse(reply([], reason))).not.toHaveProperty("blocked");
    },
  );

  it("a prompt block wins over the candidates; an unspecified one is none", () => {
    expect(
      parseGeminiImageResponse({
        promptFeedback: { blockReason: "SAFETY", blockReasonMessage: "no" },
        ...reply([], "NO_IMAGE"),
      }).blocked,
    ).toEqual({ reason: "SAFETY", stage: "prompt", policy: true, message: "no" });
    expect(
      parseGeminiImageResponse({ promptFeedback: { blockReason: "BLOCK_REASON_UNSPECIFIED" } }),
    ).not.toHaveProperty("blocked");
  });

  it("counts thoughts as output tokens", () => {
    expect(
      parseGeminiImageResponse({
        usageMetadata: {
          promptTokenCount: 5,
          candidatesTokenCount: 1290,
          thoughtsTokenCount: 200,
          totalTokenCount: 1495,
        },
      }).usage,
    ).toEqual({ inputTokens: 5, outputTokens: 1490, totalTokens: 1495 });
  });

  it("bounds images and text", () => {
    const parts = Array.from({ length: 40 }, (_, i) => [
      { inlineData: { mimeType: "image/png", data: `I${i}` } },
      { text: "t".repeat(1000) },
    ]).flat();
    const result = parseGeminiImageResponse(reply(parts));
    expect(result.images).toHaveLength(GEMINI_IMAGE_LIMITS.images);
    expect(result.text).toHaveLength(GEMINI_IMAGE_LIMITS.text);
  });

  it.each([
    ["candidates not a list", { candidates: {} }],
    ["a part's inlineData without data", reply([{ inlineData: { mimeType: "image/png" } }])],
    ["negative token counts", { usageMetadata: { promptTokenCount: -1 } }],
    ["an array", []],
  ])("refuses %s with a 502", (_case, body) => {
    expect(() => parseGeminiImageResponse(body)).toThrow(expect.objectContaining({ status: 502 }));
  });
});

describe("geminiImageShape (the API reference size -> imageConfig)", () => {
  it.each([
    ["16:9", { aspectRatio: "16:9" }],
    ["1:1", { aspectRatio: "1:1" }],
    ["21:9", { aspectRatio: "21:9" }],
    ["1024x1024", { aspectRatio: "1:1", imageSize: "1K" }],
    ["1920x1080", { aspectRatio: "16:9", imageSize: "2K" }],
    ["1536x1024", { aspectRatio: "3:2", imageSize: "2K" }],
    ["4096x2304", { aspectRatio: "16:9", imageSize: "4K" }],
    [" 768x1024 ", { aspectRatio: "3:4", imageSize: "1K" }],
    ["32:18", { aspectRatio: "16:9" }],
    ["7:3", { aspectRatio: "21:9" }],
    ["2520x1080", { aspectRatio: "21:9", imageSize: "4K" }],
  ])("%s -> %o", (size, shape) => {
    expect(geminiImageShape(size)).toEqual(shape);
  });

  it.each(["2:1", "0:1", "1000x0", "8192x8192", "16/9", "auto", "", "1:1:1", "123456:1", "-1:1"])(
    "%s -> undefined",
    (size) => {
      expect(geminiImageShape(size)).toBeUndefined();
    },
  );
});
