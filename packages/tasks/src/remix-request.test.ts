import { describe, expect, it } from "vitest";
import { expect400 } from "../test/helpers.js";
import { parseRemixRequest, type RemixSource } from "./remix-request.js";

const done: RemixSource = { model: "vidV3.1-fast", status: "completed" };
const remix = (over: Record<string, unknown> = {}, source: RemixSource = done) =>
  parseRemixRequest({ model: "vidV3.1-fast", prompt: "and then", ...over }, source);

describe("parseRemixRequest (the API reference remix table)", () => {
  it("applies the defaults: raw false, 720p", () => {
    expect(remix()).toEqual({
      model: "vidV3.1-fast",
      canonicalModel: "vidV3.1-fast",
      prompt: "and then",
      raw: false,
      resolution: "720p",
    });
  });

  it("the model must equal the source's: quality on a fast source is refused", () => {
    expect400(() => remix({ model: "vidV3.1-quality" }), "model");
  });
  it("alias-insensitive: fast-ext remixes a fast source, fast remixes a fast-ext source", () => {
    expect(remix({ model: "vidV3.1-fast-ext" }).canonicalModel).toBe("vidV3.1-fast");
    expect(remix({}, { model: "vidV3.1-fast-ext", status: "completed" }).model).toBe(
      "vidV3.1-fast",
    );
  });
  it("quality remixes a quality source", () => {
    const source: RemixSource = { model: "vidV3.1-quality-ext", status: "completed" };
    expect(remix({ model: "vidV3.1-quality" }, source).canonicalModel).toBe("vidV3.1-quality");
  });
  it("only fast and quality: lite and official models are refused", () => {
    const lite: RemixSource = { model: "vidV3.1-lite", status: "completed" };
    expect400(() => remix({ model: "vidV3.1-lite" }, lite), "model");
    const off: RemixSource = { model: "vidV3.1-fast-official", status: "completed" };
    expect400(() => remix({ model: "vidV3.1-fast-official" }, off), "model");
  });
  it("a fast remix of an official source is a model mismatch", () => {
    expect400(() => remix({}, { model: "vidV3.1-fast-official", status: "completed" }), "model");
  });

  it.each(["pending", "processing", "failed", "cancelled"] as const)(
    "a %s source is refused with a 400 naming task_id",
    (status) => {
      expect(expect400(() => remix({}, { model: "vidV3.1-fast", status }), "task_id")).toContain(
        status,
      );
    },
  );

  it("raw is a boolean", () => {
    expect(remix({ raw: true }).raw).toBe(true);
    expect400(() => remix({ raw: "true" }), "raw");
  });
  it("aspect_ratio: 16:9 or 9:16", () => {
    expect(remix({ aspect_ratio: "9:16" }).aspectRatio).toBe("9:16");
    expect400(() => remix({ aspect_ratio: "1:1" }), "aspect_ratio");
  });
  it("resolution: 720p, 1080p or 4k", () => {
    expect(remix({ resolution: "4k" }).resolution).toBe("4k");
    expect400(() => remix({ resolution: "2k" }), "resolution");
  });
  it("prompt is required", () => {
    expect400(() => parseRemixRequest({ model: "vidV3.1-fast" }, done), "prompt");
  });
  it("model is required", () => {
    expect400(() => parseRemixRequest({ prompt: "x" }, done), "model");
  });
  it("duration is not a remix field (8 s always become 15 s)", () => {
    expect400(() => remix({ duration: 8 }), "duration");
  });
  it("unknown fields are refused, naming the field", () => {
    expect400(() => remix({ image_urls: [] }), "image_urls");
  });
  it("webhook and language are accepted like on the other video submissions", () => {
    expect(remix({ webhook: "https://hooks.example", language: "De" })).toMatchObject({
      webhook: "https://hooks.example",
      language: "de",
    });
  });
  it("a body that is not an object is a 400", () => {
    expect400(() => parseRemixRequest("x", done), undefined);
  });
});
