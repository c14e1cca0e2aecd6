import { describe, expect, it } from "vitest";
import { parseImageRequest } from "./image-request.js";
import { parseRemixRequest } from "./remix-request.js";
import { estimatedTimeSeconds, generatedSeconds } from "./task-estimates.js";
import { parseVideoRequest } from "./video-request.js";

const video = (body: Record<string, unknown>) => parseVideoRequest({ prompt: "x", ...body });
const remix = (model: string, resolution = "720p") =>
  parseRemixRequest({ model, prompt: "x", resolution }, { model, status: "completed" });

describe("generatedSeconds (billing)", () => {
  it("standard video is always 8 seconds", () => {
    expect(generatedSeconds(video({ model: "vidV3.1-lite" }))).toBe(8);
    expect(generatedSeconds(video({ model: "vidV3.1-quality-ext", duration: 8 }))).toBe(8);
  });
  it("official video is duration x sample_count", () => {
    expect(generatedSeconds(video({ model: "vidV3.1-fast-official" }))).toBe(8);
    expect(
      generatedSeconds(video({ model: "vidV3.1-fast-official", duration: 4, sample_count: 3 })),
    ).toBe(12);
    expect(
      generatedSeconds(video({ model: "vidV3.1-quality-official", duration: 6, sample_count: 4 })),
    ).toBe(24);
  });
  it("a remix generates 7 seconds (8 extended to 15)", () => {
    expect(generatedSeconds(remix("vidV3.1-fast"))).toBe(7);
  });
});

describe("estimatedTimeSeconds", () => {
  it("is a positive whole number of seconds for every kind of request", () => {
    const all = [
      video({ model: "vidV3.1-fast" }),
      video({ model: "vidV3.1-fast-official", sample_count: 4 }),
      remix("vidV3.1-quality"),
      parseImageRequest({ model: "txtA-image-2", prompt: "x" }),
    ];
    for (const req of all) {
      const t = estimatedTimeSeconds(req);
      expect(Number.isInteger(t) && t > 0).toBe(true);
    }
  });
  it("grows with quality, resolution and generated seconds", () => {
    const fast = estimatedTimeSeconds(video({ model: "vidV3.1-fast" }));
    expect(estimatedTimeSeconds(video({ model: "vidV3.1-quality" }))).toBeGreaterThan(fast);
    expect(
      estimatedTimeSeconds(video({ model: "vidV3.1-fast", resolution: "4k" })),
    ).toBeGreaterThan(fast);
    const one = estimatedTimeSeconds(video({ model: "vidV3.1-fast-official" }));
    expect(
      estimatedTimeSeconds(video({ model: "vidV3.1-fast-official", sample_count: 2 })),
    ).toBeGreaterThan(one);
  });
  it("aliases estimate like their main model", () => {
    expect(estimatedTimeSeconds(video({ model: "vidV3.1-lite-ext" }))).toBe(
      estimatedTimeSeconds(video({ model: "vidV3.1-lite" })),
    );
  });
});
