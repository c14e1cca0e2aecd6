import { describe, expect, it } from "vitest";
import { post, readAll, sseJson, useSim } from "../testing/http.ts";
import { IMAGE_OUTPUT_TOKENS } from "./image-output.ts";

const sim = useSim();
const KEY = { "x-goog-api-key": "AIza-test" };
const IMAGE_MODEL = "gemini-3-pro-image-preview";
const url = (model: string, method = "generateContent", query = "") =>
  `${sim().url}/v1beta/models/${model}:${method}${query}`;
const ask = (
  text: string,
  generationConfig?: Record<string, unknown>,
  extraParts: unknown[] = [],
) => ({
  contents: [{ role: "user", parts: [{ text }, ...extraParts] }],
  ...(generationConfig ? { generationConfig } : {}),
});
const IMAGE_CONFIG = {
  responseModalities: ["TEXT", "IMAGE"],
  imageConfig: { aspectRatio: "16:9" },
};

// biome-ignore lint/suspicious/noExplicitAny: replies are asserted field by field
async function generate(model: string, body: unknown): Promise<any> {
  const response = await post(url(model), body, KEY);
  expect(response.status).toBe(200);
  return response.json();
}

describe("Gemini image output", () => {
  it("answers a text part and a real PNG, with image tokens itemized", async () => {
    const reply = await generate(IMAGE_MODEL, ask("a cat on a mat", IMAGE_CONFIG));
    expect(reply.candidates).toEqual([
      {
        content: {
          parts: [
            { text: "echo: a cat on a mat" },
            { inlineData: { mimeType: "image/png", data: expect.stringMatching(/^iVBORw0KGgo/) } },
          ],
          role: "model",
        },
        finishReason: "STOP",
        index: 0,
      },
    ]);
    const png = Buffer.from(reply.candidates[0].content.parts[1].inlineData.data, "base64");
    expect(png.toString("latin1", 12, 16)).toBe("IHDR");
    expect(reply.usageMetadata).toEqual({
      promptTokenCount: 4,
      candidatesTokenCount: 5 + IMAGE_OUTPUT_TOKENS, // "echo: a cat on a mat": 20 chars
      totalTokenCount: 4 + 5 + IMAGE_OUTPUT_TOKENS,
      promptTokensDetails: [{ modality: "TEXT", tokenCount: 4 }],
      candidatesTokensDetails: [
        { modality: "TEXT", tokenCount: 5 },
        { modality: "IMAGE", tokenCount: IMAGE_OUTPUT_TOKENS },
      ],
    });
  });

  it("draws the same image for the same prompt, another for another prompt", async () => {
    const image = async (text: string, model = IMAGE_MODEL) =>
      (await generate(model, ask(text, IMAGE_CONFIG))).candidates[0].content.parts[1].inlineData
        .data;
    const first = await image("a red barn");
    expect(await image("a red barn")).toBe(first);
    expect(await image("a blue barn")).not.toBe(first);
    expect(await image("a red barn", "txtC-3-pro-image-preview")).not.toBe(first);
  });

  it("answers only the image when IMAGE is the only modality", async () => {
    const reply = await generate(
      IMAGE_MODEL,
      ask("just a picture", { responseModalities: ["IMAGE"] }),
    );
    expect(reply.candidates[0].content.parts).toEqual([
      { inlineData: { mimeType: "image/png", data: expect.any(String) } },
    ]);
    expect(reply.usageMetadata.candidatesTokensDetails).toEqual([
      { modality: "IMAGE", tokenCount: IMAGE_OUTPUT_TOKENS },
    ]);
  });

  it("accepts input images as inlineData parts (image editing)", async () => {
    const input = { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } };
    const reply = await generate(
      "txtC-3-pro-image-preview",
      ask("make it blue", IMAGE_CONFIG, [input]),
    );
    expect(reply.candidates[0].content.parts[1].inlineData.mimeType).toBe("image/png");
    expect(reply.usageMetadata.promptTokenCount).toBe(3 + 256); // the text plus one media part
  });

  it("answers text only when the image model is asked for TEXT", async () => {
    const reply = await generate(IMAGE_MODEL, ask("describe", { responseModalities: ["TEXT"] }));
    expect(reply.candidates[0].content.parts).toEqual([{ text: "echo: describe" }]);
  });

  it("refuses IMAGE output from a model that cannot draw", async () => {
    const response = await post(url("gemini-2.5-flash"), ask("draw", IMAGE_CONFIG), KEY);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toEqual({
      code: 400,
      status: "INVALID_ARGUMENT",
      message:
        "The requested combination of response modalities (TEXT, IMAGE) is not supported by the model models/gemini-2.5-flash.",
    });
  });

  it("streams the image as its own chunk, with cumulative image tokens on the last", async () => {
    const response = await post(
      url(IMAGE_MODEL, "streamGenerateContent", "?alt=sse"),
      ask("a dog", IMAGE_CONFIG),
      KEY,
    );
    const chunks = sseJson((await readAll(response)).text) as Array<{
      candidates: { content: { parts: Record<string, unknown>[] }; finishReason?: string }[];
      usageMetadata: { candidatesTokenCount: number };
    }>;
    const last = chunks.at(-1)!;
    expect(last.candidates[0]!.content.parts[0]).toHaveProperty("inlineData");
    expect(last.candidates[0]!.finishReason).toBe("STOP");
    expect(last.usageMetadata.candidatesTokenCount).toBe(3 + IMAGE_OUTPUT_TOKENS); // "echo: a dog"
    expect(chunks[0]!.usageMetadata.candidatesTokenCount).toBeLessThanOrEqual(3);
  });
});

describe("Gemini safety blocks", () => {
  it("[[safety]] stops an image reply with IMAGE_SAFETY and no content", async () => {
    const reply = await generate(IMAGE_MODEL, ask("forbidden [[safety]]", IMAGE_CONFIG));
    expect(reply.candidates).toEqual([{ finishReason: "IMAGE_SAFETY", index: 0 }]);
    expect(reply.promptFeedback).toBeUndefined();
    expect(reply.usageMetadata.candidatesTokenCount).toBe(0);
  });

  it("[[safety]] stops a text reply with SAFETY", async () => {
    const reply = await generate("gemini-2.5-flash", ask("forbidden [[safety]]"));
    expect(reply.candidates).toEqual([{ finishReason: "SAFETY", index: 0 }]);
  });

  it("[[safety:prompt]] and [[safety:PROHIBITED_CONTENT]] block the prompt: promptFeedback, no candidates", async () => {
    const reply = await generate(IMAGE_MODEL, ask("forbidden [[safety:prompt]]", IMAGE_CONFIG));
    expect(reply).toEqual({
      promptFeedback: { blockReason: "SAFETY" },
      usageMetadata: {
        promptTokenCount: 7, // "forbidden [[safety:prompt]]": 27 chars
        candidatesTokenCount: 0,
        totalTokenCount: 7,
        promptTokensDetails: [{ modality: "TEXT", tokenCount: 7 }],
      },
      modelVersion: IMAGE_MODEL,
      responseId: expect.any(String),
    });
    const prohibited = await generate(
      IMAGE_MODEL,
      ask("x [[safety:PROHIBITED_CONTENT]]", IMAGE_CONFIG),
    );
    expect(prohibited.promptFeedback).toEqual({ blockReason: "PROHIBITED_CONTENT" });
  });

  it("a blocked stream is one chunk with the blocked reply", async () => {
    const response = await post(
      url(IMAGE_MODEL, "streamGenerateContent", "?alt=sse"),
      ask("x [[safety]]", IMAGE_CONFIG),
      KEY,
    );
    const chunks = sseJson((await readAll(response)).text);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.candidates).toEqual([{ finishReason: "IMAGE_SAFETY", index: 0 }]);
  });
});
