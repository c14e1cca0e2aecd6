import { fc } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { veoRequest } from "../../test/veo-arbitraries.js";
import { inlineImage, renderVeoRequest, veoRequestFromWire } from "./render-veo-request.js";
import { veoPredictRequestSchema } from "./veo-api.js";
import { veoOperationPath, veoPredictPath } from "./veo-paths.js";
import { toVeoPersonGeneration, toVeoResizeMode, toVeoResolution } from "./veo-values.js";

describe("renderVeoRequest", () => {
  it("renders a body the wire schema accepts, for every neutral request", () => {
    fc.assert(
      fc.property(veoRequest, (request) => {
        expect(veoPredictRequestSchema.safeParse(renderVeoRequest(request)).success).toBe(true);
      }),
    );
  });

  it("loses nothing: the body read back is the request (law 2)", () => {
    fc.assert(
      fc.property(veoRequest, (request) => {
        const wire = veoPredictRequestSchema.parse(renderVeoRequest(request));
        expect(veoRequestFromWire(wire)).toEqual(request);
      }),
    );
  });

  it("writes the SDK's wire: one instance, bytesBase64Encoded images, asset references", () => {
    const png = { mimeType: "image/png", data: "iVBORw0KGgo=" };
    const jpeg = { mimeType: "image/jpeg", data: "/9j/4AAQ" };
    expect(
      renderVeoRequest({
        prompt: "a cat surfing",
        negativePrompt: "rain",
        image: png,
        lastFrame: jpeg,
        referenceImages: [jpeg],
        aspectRatio: "9:16",
        durationSeconds: 6,
        resolution: "1080p",
        sampleCount: 2,
        seed: 42,
        personGeneration: "allow_adult",
        enhancePrompt: true,
        generateAudio: false,
        resizeMode: "crop",
      }),
    ).toEqual({
      instances: [
        {
          prompt: "a cat surfing",
          image: { bytesBase64Encoded: "iVBORw0KGgo=", mimeType: "image/png" },
          lastFrame: { bytesBase64Encoded: "/9j/4AAQ", mimeType: "image/jpeg" },
          referenceImages: [
            {
              image: { bytesBase64Encoded: "/9j/4AAQ", mimeType: "image/jpeg" },
              referenceType: "asset",
            },
          ],
        },
      ],
      parameters: {
        aspectRatio: "9:16",
        durationSeconds: 6,
        resolution: "1080p",
        sampleCount: 2,
        seed: 42,
        personGeneration: "allow_adult",
        negativePrompt: "rain",
        enhancePrompt: true,
        generateAudio: false,
        resizeMode: "crop",
      },
    });
  });

  it("sends a video to extend by its uri, and no parameters object when none is set", () => {
    const uri = "https://generativelanguage.googleapis.com/v1beta/files/abc:download?alt=media";
    expect(renderVeoRequest({ prompt: "go on", video: { uri } })).toEqual({
      instances: [{ prompt: "go on", video: { uri } }],
    });
  });

  it("leaves out an empty reference list", () => {
    expect(renderVeoRequest({ prompt: "p", referenceImages: [] })).toEqual({
      instances: [{ prompt: "p" }],
    });
  });
});

describe("the request schema", () => {
  it("also reads the inlineData spelling of an image", () => {
    const body = veoPredictRequestSchema.parse({
      instances: [{ prompt: "p", image: { inlineData: { mimeType: "image/png", data: "AAAA" } } }],
    });
    expect(veoRequestFromWire(body).image).toEqual({ mimeType: "image/png", data: "AAAA" });
    expect(inlineImage({ bytesBase64Encoded: "BBBB", mimeType: "image/webp" })).toEqual({
      mimeType: "image/webp",
      data: "BBBB",
    });
  });

  it.each([
    ["two instances", { instances: [{ prompt: "a" }, { prompt: "b" }] }],
    ["no prompt", { instances: [{}] }],
    ["five samples", { instances: [{ prompt: "a" }], parameters: { sampleCount: 5 } }],
    [
      "a the API reference spelling",
      { instances: [{ prompt: "a" }], parameters: { resolution: "4K" } },
    ],
    [
      "a style reference without image",
      { instances: [{ prompt: "a", referenceImages: [{ referenceType: "style" }] }] },
    ],
    [
      "four reference images",
      {
        instances: [
          {
            prompt: "a",
            referenceImages: Array(4).fill({
              image: { bytesBase64Encoded: "A", mimeType: "image/png" },
              referenceType: "asset",
            }),
          },
        ],
      },
    ],
  ])("refuses %s", (_name, body) => {
    expect(veoPredictRequestSchema.safeParse(body).success).toBe(false);
  });
});

describe("the API reference values -> the upstream's", () => {
  it("maps resolution, person generation and resize mode by table", () => {
    expect(toVeoResolution("4K")).toBe("4k");
    expect(toVeoResolution("720p")).toBe("720p");
    expect(toVeoResolution("8k")).toBeUndefined();
    expect(toVeoPersonGeneration("disallow")).toBe("dont_allow");
    expect(toVeoPersonGeneration("allow_adult")).toBe("allow_adult");
    expect(toVeoPersonGeneration("toString")).toBeUndefined();
    expect(toVeoResizeMode("PAD")).toBe("pad");
    expect(toVeoResizeMode("stretch")).toBeUndefined();
  });
});

describe("paths", () => {
  it("builds the submit path with the model escaped", () => {
    expect(veoPredictPath("veo-3.1-fast-generate-preview")).toBe(
      "/v1beta/models/veo-3.1-fast-generate-preview:predictLongRunning",
    );
    expect(veoPredictPath("a/b?c")).toBe("/v1beta/models/a%2Fb%3Fc:predictLongRunning");
  });

  it("polls only operation names of the documented shape", () => {
    expect(veoOperationPath("models/veo-3.1-generate-preview/operations/abc123")).toBe(
      "/v1beta/models/veo-3.1-generate-preview/operations/abc123",
    );
    expect(veoOperationPath("operations/xyz")).toBe("/v1beta/operations/xyz");
    for (const bad of [
      "models/../../admin/operations/x",
      "operations/x?key=1",
      "https://evil.example/operations/x",
      "operations/",
      `operations/${"a".repeat(600)}`,
      "models/m/operations/..",
    ]) {
      expect(() => veoOperationPath(bad), bad).toThrow(expect.objectContaining({ status: 502 }));
    }
  });
});
