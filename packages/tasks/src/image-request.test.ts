import { describe, expect, it } from "vitest";
import { expect400 } from "../test/helpers.js";
import { parseImageRequest, parseImageSize } from "./image-request.js";

const image = (over: Record<string, unknown> = {}) =>
  parseImageRequest({ model: "txtC-3-pro-image-preview", prompt: "a fox", ...over });

describe("parseImageRequest", () => {
  it("accepts both models with the minimum fields", () => {
    expect(image()).toEqual({ model: "txtC-3-pro-image-preview", prompt: "a fox", imageUrls: [] });
    expect(image({ model: "txtA-image-2" }).model).toBe("txtA-image-2");
  });
  it("takes the OpenAI Images fields the SDKs send", () => {
    const fields = { n: 3, response_format: "b64_json", quality: "hd", style: "vivid", user: "u" };
    expect(image({ model: "txtA-image-2", ...fields })).toMatchObject({
      n: 3,
      responseFormat: "b64_json",
      quality: "hd",
      style: "vivid",
      user: "u",
    });
    expect400(() => image({ n: 11 }), "n");
    expect400(() => image({ n: "2" }), "n");
    expect400(() => image({ response_format: "png" }), "response_format");
    expect400(() => image({ style: "odd" }), "style");
  });
  it("an unknown model names model", () => {
    expect400(() => image({ model: "dall-e-9" }), "model");
  });
  it("prompt is required", () => {
    expect400(() => parseImageRequest({ model: "txtA-image-2" }), "prompt");
  });

  it("image_urls are {url} objects", () => {
    const urls = [{ url: "https://gw.example/files/abc" }, { url: "https://cdn.example/a.gif" }];
    expect(image({ image_urls: urls }).imageUrls).toEqual(urls.map((u) => u.url));
  });
  it("a bare string in image_urls is refused, naming the item", () => {
    expect(
      expect400(() => image({ image_urls: ["https://cdn.example/a.png"] }), "image_urls[0]"),
    ).toMatch(/\{url\}/);
  });
  it("base64 data URLs are refused with a clear 400 (string or {url})", () => {
    expect(
      expect400(() => image({ image_urls: ["data:image/png;base64,AAAA"] }), "image_urls[0]"),
    ).toMatch(/no longer accepted.*upload/);
    const wrapped = [{ url: "https://ok.example/a" }, { url: "data:image/png;base64,AAAA" }];
    expect(expect400(() => image({ image_urls: wrapped }), "image_urls[1].url")).toMatch(/upload/);
  });
  it("raw base64 in url (no scheme) is refused as base64", () => {
    const b64 =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    expect(expect400(() => image({ image_urls: [{ url: b64 }] }), "image_urls[0].url")).toMatch(
      /base64/,
    );
  });
  it("inline-data objects ({b64_json}) are refused as base64", () => {
    expect(expect400(() => image({ image_urls: [{ b64_json: "AAAA" }] }), "image_urls[0]")).toMatch(
      /base64/,
    );
  });
  it("image url must be http(s)", () => {
    expect400(() => image({ image_urls: [{ url: "ftp://x.example/a.png" }] }), "image_urls[0].url");
  });
  it("unknown keys inside an image_urls item are refused", () => {
    expect400(
      () => image({ image_urls: [{ url: "https://x.example/a", detail: "high" }] }),
      "image_urls[0].detail",
    );
  });
  it("image_urls must be an array", () => {
    expect400(() => image({ image_urls: { url: "https://x.example/a" } }), "image_urls");
  });

  it("size as an aspect ratio", () => {
    expect(image({ size: "16:9" }).size).toEqual({ aspectRatio: "16:9" });
  });
  it("size as pixels", () => {
    expect(image({ size: "1024x1024" }).size).toEqual({ width: 1024, height: 1024 });
    expect(image({ size: "1536X1024" }).size).toEqual({ width: 1536, height: 1024 });
  });
  it("size: anything else is a 400", () => {
    for (const size of ["big", "16/9", "0:1", "1024", "1024x0", "99999x2", "auto"]) {
      expect400(() => image({ size }), "size");
    }
    expect400(() => image({ size: 1024 }), "size");
  });
  it("webhook and language are accepted", () => {
    expect(image({ webhook: "https://hooks.example/x", language: "pt" })).toMatchObject({
      webhook: "https://hooks.example/x",
      language: "pt",
    });
  });
  it("an unsupported language does not fail the submission", () => {
    expect(image({ language: "klingon" })).not.toHaveProperty("language");
  });
  it("unknown fields are refused, naming the field", () => {
    expect400(() => image({ count: 2 }), "count");
  });
});

describe("parseImageSize", () => {
  it("normalises ratio text and keeps pixel sizes", () => {
    expect(parseImageSize(" 4:3 ")).toEqual({ aspectRatio: "4:3" });
    expect(parseImageSize("512x768")).toEqual({ width: 512, height: 768 });
    expect(parseImageSize("x")).toBeUndefined();
  });
});
