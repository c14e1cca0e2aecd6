import { parseImageRequest } from "@interlingua/tasks";
import { describe, expect, it } from "vitest";
import { JOBS } from "./jobs.ts";

const request = (body: Record<string, unknown>) =>
  parseImageRequest({ model: "txtA-image-2", prompt: "a cat", ...body });

describe("what an image job refuses at submission", () => {
  it("OpenAI's generations endpoint: no input images, and its own size table", () => {
    const job = JOBS["openai-images"];
    expect(job.refuseImage?.(request({}))).toBeUndefined();
    expect(job.refuseImage?.(request({ size: "1024x1024" }))).toBeUndefined();
    const images = job.refuseImage?.(
      request({ image_urls: [{ url: "https://example.test/a.png" }] }),
    );
    expect(images).toMatchObject({ status: 400, param: "image_urls" });
    expect(images?.message).toContain("does not take image_urls");
    expect(job.refuseImage?.(request({ size: "10:1" }))).toMatchObject({
      status: 400,
      param: "size",
      message: "size 10:1 is not available for txtA-image-2",
    });
  });

  it("Gemini: input images are fine, sizes are its own aspect ratios", () => {
    const job = JOBS["gemini-images"];
    expect(
      job.refuseImage?.(
        request({ image_urls: [{ url: "https://example.test/a.png" }], size: "16:9" }),
      ),
    ).toBeUndefined();
    expect(job.refuseImage?.(request({ size: "7:5" }))).toMatchObject({
      status: 400,
      param: "size",
    });
  });

  it("Veo takes no image request", () => {
    expect(JOBS.veo.refuseImage).toBeUndefined();
  });
});
