import { describe, expect, it } from "vitest";
import { expect400 } from "../test/helpers.js";
import {
  type OfficialVideoRequest,
  parseVideoRequest,
  type StandardVideoRequest,
} from "./video-request.js";

const png = (n: number) => `https://img.example/${n}.png`;
const std = (over: Record<string, unknown> = {}) =>
  parseVideoRequest({ model: "vidV3.1-fast", prompt: "a cat", ...over }) as StandardVideoRequest;
const official = (over: Record<string, unknown> = {}) =>
  parseVideoRequest({
    model: "vidV3.1-fast-official",
    prompt: "a cat",
    ...over,
  }) as OfficialVideoRequest;

describe("parseVideoRequest: the body and the model", () => {
  it("refuses a body that is not an object", () => {
    expect400(() => parseVideoRequest([]), undefined);
    expect400(() => parseVideoRequest("x"), undefined);
    expect400(() => parseVideoRequest(null), undefined);
  });
  it("model is required", () => {
    expect400(() => parseVideoRequest({ prompt: "x" }), "model");
  });
  it("model must be a string", () => {
    expect400(() => parseVideoRequest({ model: 3, prompt: "x" }), "model");
  });
  it("an unknown model names model", () => {
    expect(expect400(() => parseVideoRequest({ model: "vidV4", prompt: "x" }), "model")).toContain(
      "vidV3.1-fast",
    );
  });
  it("prompt is required and not blank", () => {
    expect400(() => parseVideoRequest({ model: "vidV3.1-fast" }), "prompt");
    expect400(() => std({ prompt: "   " }), "prompt");
    expect400(() => official({ prompt: 7 }), "prompt");
  });
  it("the model selects the variant", () => {
    expect(std().variant).toBe("standard");
    expect(official().variant).toBe("official");
    expect(parseVideoRequest({ model: "vidV3.1-quality-official", prompt: "x" }).variant).toBe(
      "official",
    );
  });
});

describe("standard video (the API reference table)", () => {
  it("applies the defaults: duration 8, 720p, no gif, no fallback, text-to-video", () => {
    expect(std()).toEqual({
      variant: "standard",
      model: "vidV3.1-fast",
      canonicalModel: "vidV3.1-fast",
      prompt: "a cat",
      duration: 8,
      imageUrls: [],
      resolution: "720p",
      enableGif: false,
      officialFallback: false,
    });
  });

  it.each([
    ["vidV3.1-fast-ext", "vidV3.1-fast"],
    ["vidV3.1-quality-ext", "vidV3.1-quality"],
    ["vidV3.1-lite-ext", "vidV3.1-lite"],
  ])("alias %s is accepted and canonicalised to %s", (model, canonical) => {
    const req = parseVideoRequest({ model, prompt: "x" });
    expect(req.model).toBe(model);
    expect(req.canonicalModel).toBe(canonical);
  });

  it("duration: only 8 is accepted", () => {
    expect(std({ duration: 8 }).duration).toBe(8);
    expect400(() => std({ duration: 6 }), "duration");
    expect400(() => std({ duration: 4 }), "duration");
  });
  it('duration: a quoted "8" is a 400', () => {
    expect400(() => std({ duration: "8" }), "duration");
  });

  it("aspect_ratio: 16:9 or 9:16 only", () => {
    expect(std({ aspect_ratio: "9:16" }).aspectRatio).toBe("9:16");
    expect(std({ aspect_ratio: "16:9" }).aspectRatio).toBe("16:9");
    expect400(() => std({ aspect_ratio: "1:1" }), "aspect_ratio");
  });

  it("resolution: 720p, 1080p or 4k", () => {
    expect(std({ resolution: "1080p" }).resolution).toBe("1080p");
    expect(std({ resolution: "4k" }).resolution).toBe("4k");
    expect400(() => std({ resolution: "480p" }), "resolution");
    expect400(() => std({ resolution: "4K" }), "resolution");
  });

  it("enable_gif cannot be combined with 1080p", () => {
    expect400(() => std({ enable_gif: true, resolution: "1080p" }), "enable_gif");
  });
  it("enable_gif cannot be combined with 4k", () => {
    expect400(() => std({ enable_gif: true, resolution: "4k" }), "enable_gif");
  });
  it("enable_gif with 720p (default) is fine, and false combines with anything", () => {
    expect(std({ enable_gif: true }).enableGif).toBe(true);
    expect(std({ enable_gif: false, resolution: "4k" }).enableGif).toBe(false);
  });
  it('enable_gif must be a boolean ("true" is a 400)', () => {
    expect400(() => std({ enable_gif: "true" }), "enable_gif");
  });
  it("official_fallback is a boolean", () => {
    expect(std({ official_fallback: true }).officialFallback).toBe(true);
    expect400(() => std({ official_fallback: 1 }), "official_fallback");
  });

  it("generation_type inferred: no image is text-to-video", () => {
    expect(std().generationType).toBeUndefined();
  });
  it("generation_type inferred: 1 image is the first frame (image-to-video)", () => {
    expect(std({ image_urls: [png(1)] })).toMatchObject({
      generationType: "frame",
      imageUrls: [png(1)],
    });
  });
  it("generation_type inferred: 2 images mean frame (first and last)", () => {
    expect(std({ image_urls: [png(1), png(2)] }).generationType).toBe("frame");
  });
  it("generation_type inferred: 3 images mean reference", () => {
    expect(std({ image_urls: [png(1), png(2), png(3)] }).generationType).toBe("reference");
  });
  it("an explicit generation_type wins over inference", () => {
    expect(std({ generation_type: "reference", image_urls: [png(1)] }).generationType).toBe(
      "reference",
    );
  });
  it("generation_type must be frame or reference", () => {
    expect400(() => std({ generation_type: "extend", image_urls: [png(1)] }), "generation_type");
  });
  it("generation_type needs image_urls", () => {
    expect400(() => std({ generation_type: "frame" }), "generation_type");
  });
  it("frame takes at most 2 images", () => {
    expect400(
      () => std({ generation_type: "frame", image_urls: [png(1), png(2), png(3)] }),
      "generation_type",
    );
  });

  it("vidV3.1-quality refuses reference (explicit)", () => {
    const body = {
      model: "vidV3.1-quality",
      prompt: "x",
      generation_type: "reference",
      image_urls: [png(1)],
    };
    expect400(() => parseVideoRequest(body), "generation_type");
  });
  it("vidV3.1-quality refuses reference (inferred from 3 images), also via its alias", () => {
    for (const model of ["vidV3.1-quality", "vidV3.1-quality-ext"]) {
      const body = { model, prompt: "x", image_urls: [png(1), png(2), png(3)] };
      expect400(() => parseVideoRequest(body), "image_urls");
    }
  });
  it("vidV3.1-quality accepts frame mode", () => {
    const req = parseVideoRequest({
      model: "vidV3.1-quality",
      prompt: "x",
      image_urls: [png(1), png(2)],
    });
    expect(req).toMatchObject({ generationType: "frame" });
  });

  const lite = (over: Record<string, unknown>) => () =>
    parseVideoRequest({ model: "vidV3.1-lite", prompt: "x", ...over });
  it("vidV3.1-lite refuses generation_type", () => {
    expect400(lite({ generation_type: "frame" }), "generation_type");
  });
  it("vidV3.1-lite refuses image_urls (even an empty list), also via its alias", () => {
    expect400(lite({ image_urls: [png(1)] }), "image_urls");
    expect400(lite({ image_urls: [] }), "image_urls");
    expect400(
      () => parseVideoRequest({ model: "vidV3.1-lite-ext", prompt: "x", image_urls: [png(1)] }),
      "image_urls",
    );
  });
  it("vidV3.1-lite refuses official_fallback (even false)", () => {
    expect400(lite({ official_fallback: false }), "official_fallback");
  });
  it("vidV3.1-lite accepts the rest", () => {
    expect(lite({ aspect_ratio: "9:16", resolution: "1080p" })()).toMatchObject({
      canonicalModel: "vidV3.1-lite",
    });
  });

  it("image_urls: at most 3", () => {
    expect400(() => std({ image_urls: [png(1), png(2), png(3), png(4)] }), "image_urls");
  });
  it("image_urls: an array of strings", () => {
    expect400(() => std({ image_urls: png(1) }), "image_urls");
    expect400(() => std({ image_urls: [{ url: png(1) }] }), "image_urls[0]");
  });
  it("image_urls: http or https only", () => {
    expect(std({ image_urls: ["http://img.example/a.jpg"] }).imageUrls).toHaveLength(1);
    expect400(() => std({ image_urls: [png(1), "ftp://img.example/a.png"] }), "image_urls[1]");
    expect400(() => std({ image_urls: ["/relative/a.png"] }), "image_urls[0]");
  });
  it("image_urls: base64 data URLs are refused with upload advice", () => {
    const message = expect400(
      () => std({ image_urls: ["data:image/png;base64,iVBORw0KGgo="] }),
      "image_urls[0]",
    );
    expect(message).toMatch(/upload/);
  });
  it("image_urls: .jpeg .jpg .png .webp accepted, case-insensitive", () => {
    const urls = [
      "https://a.example/x.jpeg",
      "https://a.example/x.JPG",
      "https://a.example/x.webp?sig=1",
    ];
    expect(std({ image_urls: urls }).imageUrls).toEqual(urls);
  });
  it("image_urls: other extensions are refused", () => {
    expect400(() => std({ image_urls: ["https://a.example/x.gif"] }), "image_urls[0]");
    expect400(() => std({ image_urls: [png(1), "https://a.example/x.bmp"] }), "image_urls[1]");
  });
  it("image_urls: the path decides, not the query (x.php?f=a.png is refused)", () => {
    expect400(() => std({ image_urls: ["https://a.example/x.php?f=a.png"] }), "image_urls[0]");
  });
  it("image_urls: URLs without an extension (the gateway's /files/<key>) are accepted", () => {
    const url = "https://gw.example/files/01HF3K2Q9ZQ";
    expect(std({ image_urls: [url] }).imageUrls).toEqual([url]);
  });

  it("webhook and language are accepted; language normalised, unsupported dropped", () => {
    expect(std({ webhook: "https://hooks.example/t", language: " JA " })).toMatchObject({
      webhook: "https://hooks.example/t",
      language: "ja",
    });
    expect(std({ language: "zh-CN" })).not.toHaveProperty("language");
  });
  it("webhook and language must be strings", () => {
    expect400(() => std({ webhook: 1 }), "webhook");
    expect400(() => std({ language: ["en"] }), "language");
  });
  it("unknown fields are refused, naming the field", () => {
    expect400(() => std({ negative_prompt: "x" }), "negative_prompt");
    expect400(() => std({ sampleCount: 2 }), "sampleCount");
  });
});

describe("official video (the API reference table)", () => {
  it("applies the defaults: duration 8, 16:9, 720p, one sample, allow_adult, enhance on", () => {
    expect(official()).toEqual({
      variant: "official",
      model: "vidV3.1-fast-official",
      canonicalModel: "vidV3.1-fast-official",
      prompt: "a cat",
      duration: 8,
      aspectRatio: "16:9",
      resolution: "720p",
      sampleCount: 1,
      personGeneration: "allow_adult",
      enhancePrompt: true,
    });
  });

  it.each([4, 6, 8])("duration %i is accepted", (duration) => {
    expect(official({ duration }).duration).toBe(duration);
  });
  it("duration: other numbers are refused", () => {
    expect400(() => official({ duration: 5 }), "duration");
    expect400(() => official({ duration: 10 }), "duration");
  });
  it('duration must be a bare number: "8" is a 400', () => {
    expect(expect400(() => official({ duration: "8" }), "duration")).toMatch(/bare number/);
  });

  it("aspect_ratio: 16:9 (default) or 9:16", () => {
    expect(official({ aspect_ratio: "9:16" }).aspectRatio).toBe("9:16");
    expect400(() => official({ aspect_ratio: "4:3" }), "aspect_ratio");
  });
  it("resolution: 720p, 1080p or 4K", () => {
    expect(official({ resolution: "4K" }).resolution).toBe("4K");
    expect(official({ resolution: "1080p" }).resolution).toBe("1080p");
    expect400(() => official({ resolution: "4k" }), "resolution");
  });

  it("seed: integers 0 to 4294967295", () => {
    expect(official({ seed: 0 }).seed).toBe(0);
    expect(official({ seed: 4294967295 }).seed).toBe(4294967295);
  });
  it("seed: out of range is refused", () => {
    expect400(() => official({ seed: 4294967296 }), "seed");
    expect400(() => official({ seed: -1 }), "seed");
  });
  it('seed: fractions and quoted numbers ("42") are refused', () => {
    expect400(() => official({ seed: 1.5 }), "seed");
    expect400(() => official({ seed: "42" }), "seed");
  });

  it("sample_count: 1 to 4", () => {
    expect(official({ sample_count: 4 }).sampleCount).toBe(4);
    expect400(() => official({ sample_count: 0 }), "sample_count");
    expect400(() => official({ sample_count: 5 }), "sample_count");
    expect400(() => official({ sample_count: "2" }), "sample_count");
  });

  it("enhance_prompt: true is accepted", () => {
    expect(official({ enhance_prompt: true }).enhancePrompt).toBe(true);
  });
  it("enhance_prompt: false is a 400", () => {
    expect400(() => official({ enhance_prompt: false }), "enhance_prompt");
  });

  it("person_generation: allow_adult (default) or disallow", () => {
    expect(official({ person_generation: "disallow" }).personGeneration).toBe("disallow");
    expect400(() => official({ person_generation: "allow_all" }), "person_generation");
  });
  it("generate_audio and negative_prompt are carried", () => {
    expect(official({ generate_audio: true, negative_prompt: "blur" })).toMatchObject({
      generateAudio: true,
      negativePrompt: "blur",
    });
    expect400(() => official({ generate_audio: "yes" }), "generate_audio");
  });

  const first = "https://img.example/first.png";
  it("mode rule: first_frame_image makes image-to-video, resize_mode defaults to pad", () => {
    expect(official({ first_frame_image: first })).toMatchObject({
      firstFrameImage: first,
      resizeMode: "pad",
    });
  });
  it("mode rule: text-to-video has no resize_mode", () => {
    expect(official()).not.toHaveProperty("resizeMode");
  });
  it("resize_mode only with an image", () => {
    expect400(() => official({ resize_mode: "crop" }), "resize_mode");
    expect(official({ first_frame_image: first, resize_mode: "crop" }).resizeMode).toBe("crop");
  });
  it("resize_mode must be pad or crop", () => {
    expect400(() => official({ first_frame_image: first, resize_mode: "fill" }), "resize_mode");
  });
  it("last_frame_image only with first_frame_image", () => {
    expect400(() => official({ last_frame_image: first }), "last_frame_image");
    const both = official({
      first_frame_image: first,
      last_frame_image: "https://img.example/last",
    });
    expect(both).toMatchObject({
      firstFrameImage: first,
      lastFrameImage: "https://img.example/last",
    });
  });
  it("frame images must be http(s) URLs; base64 refused", () => {
    expect400(
      () => official({ first_frame_image: "data:image/png;base64,AAAA" }),
      "first_frame_image",
    );
    expect400(
      () => official({ first_frame_image: first, last_frame_image: "file:///etc/passwd" }),
      "last_frame_image",
    );
  });

  it("webhook and language are accepted", () => {
    expect(official({ webhook: "https://hooks.example", language: "FR" })).toMatchObject({
      webhook: "https://hooks.example",
      language: "fr",
    });
  });
  it("standard-only fields are unknown to the official variant", () => {
    expect400(() => official({ image_urls: [first] }), "image_urls");
    expect400(() => official({ enable_gif: true }), "enable_gif");
  });
});
