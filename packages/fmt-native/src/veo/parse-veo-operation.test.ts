import { fc } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { veoVideoUri } from "../../test/veo-arbitraries.js";
import { parseVeoOperation, VEO_LIMITS } from "./parse-veo-operation.js";
import { veoOperationSchema } from "./veo-api.js";

// Hand-written to the documented shape of the Gemini API's operation resource (no recording of
// a Veo operation is published under a licence we can copy); field names as the official SDK
// reads them.
const name = "models/veo-3.1-fast-generate-preview/operations/9x1vwz5m7a2k";
const link =
  "https://generativelanguage.googleapis.com/v1beta/files/3k0vh2rb1q8f:download?alt=media";
const responseType =
  "type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse";

describe("parseVeoOperation on wire samples", () => {
  it("reads the submit reply: a name, not done", () => {
    expect(parseVeoOperation({ name })).toEqual({ name, done: false, videos: [] });
  });

  it("reads a finished operation's video links", () => {
    const done = {
      name,
      done: true,
      response: {
        "@type": responseType,
        generateVideoResponse: {
          generatedSamples: [
            { video: { uri: link } },
            { video: { uri: `${link}&b`, encoding: "video/mp4" } },
          ],
        },
      },
    };
    expect(parseVeoOperation(done)).toEqual({
      name,
      done: true,
      videos: [{ uri: link }, { uri: `${link}&b`, mimeType: "video/mp4" }],
    });
  });

  it("reports samples the safety filters withheld, with the upstream's reasons", () => {
    const filtered = {
      name,
      done: true,
      response: {
        "@type": responseType,
        generateVideoResponse: {
          raiMediaFilteredCount: 1,
          raiMediaFilteredReasons: [
            "Your current safety settings for person generation do not allow generating people.",
          ],
        },
      },
    };
    expect(parseVeoOperation(filtered)).toEqual({
      name,
      done: true,
      videos: [],
      blocked: {
        count: 1,
        reasons: [
          "Your current safety settings for person generation do not allow generating people.",
        ],
      },
    });
  });

  it("keeps a partial result: some videos and a filtered count", () => {
    const op = parseVeoOperation({
      name,
      done: true,
      response: {
        generateVideoResponse: {
          generatedSamples: [{ video: { uri: link } }],
          raiMediaFilteredCount: 1,
        },
      },
    });
    expect(op.videos).toEqual([{ uri: link }]);
    expect(op.blocked).toEqual({ count: 1, reasons: [] });
  });

  it("reads a failed operation's status", () => {
    expect(
      parseVeoOperation({
        name,
        done: true,
        error: {
          code: 3,
          message: "The input image is not supported.",
          status: "INVALID_ARGUMENT",
        },
      }),
    ).toEqual({
      name,
      done: true,
      videos: [],
      error: { code: 3, message: "The input image is not supported.", status: "INVALID_ARGUMENT" },
    });
  });

  it("reads progress from metadata when present, clamped to 0..100", () => {
    expect(parseVeoOperation({ name, metadata: { progressPercent: 42 } }).progress).toBe(42);
    expect(parseVeoOperation({ name, metadata: { progressPercentage: 150 } }).progress).toBe(100);
    expect(parseVeoOperation({ name, metadata: { progress: -3 } }).progress).toBe(0);
    expect(
      parseVeoOperation({ name, metadata: { "@type": "x.PredictLongRunningMetadata" } }),
    ).not.toHaveProperty("progress");
    expect(parseVeoOperation({ name, metadata: { progressPercent: "50" } })).not.toHaveProperty(
      "progress",
    );
  });

  it("skips samples without a link", () => {
    const op = parseVeoOperation({
      name,
      done: true,
      response: {
        generateVideoResponse: { generatedSamples: [{}, { video: {} }, { video: { uri: link } }] },
      },
    });
    expect(op.videos).toEqual([{ uri: link }]);
  });

  it.each([
    ["no name", { done: true }],
    ["a name that is not a string", { name: 7 }],
    ["done that is not a boolean", { name, done: "yes" }],
    [
      "samples that are not a list",
      { name, response: { generateVideoResponse: { generatedSamples: {} } } },
    ],
    [
      "a negative filtered count",
      { name, response: { generateVideoResponse: { raiMediaFilteredCount: -1 } } },
    ],
    ["an error without a code", { name, error: { message: "x" } }],
    ["not an object", "operations/x"],
  ])("refuses %s with a 502", (_case, body) => {
    expect(() => parseVeoOperation(body)).toThrow(expect.objectContaining({ status: 502 }));
  });
});

describe("bounds", () => {
  it("caps the videos, reasons and texts an upstream sends", () => {
    const op = parseVeoOperation({
      name,
      done: true,
      error: { code: 13, message: "e".repeat(50_000), status: "S".repeat(1000) },
      response: {
        generateVideoResponse: {
          generatedSamples: Array.from({ length: 500 }, (_, i) => ({
            video: { uri: `${link}&${i}` },
          })),
          raiMediaFilteredCount: 3,
          raiMediaFilteredReasons: Array.from({ length: 100 }, () => "r".repeat(10_000)),
        },
      },
    });
    expect(op.videos).toHaveLength(VEO_LIMITS.videos);
    expect(op.videos[0]).toEqual({ uri: `${link}&0` });
    expect(op.blocked?.reasons).toHaveLength(VEO_LIMITS.reasons);
    expect(op.blocked?.count).toBe(VEO_LIMITS.reasons);
    for (const reason of op.blocked?.reasons ?? []) expect(reason).toHaveLength(VEO_LIMITS.reason);
    expect(op.error?.message).toHaveLength(VEO_LIMITS.errorMessage);
    expect(op.error?.status).toHaveLength(VEO_LIMITS.errorStatus);
  });

  it("drops a link longer than the bound rather than cutting it", () => {
    const long = `${link}&${"x".repeat(VEO_LIMITS.uri)}`;
    const op = parseVeoOperation({
      name,
      done: true,
      response: { generateVideoResponse: { generatedSamples: [{ video: { uri: long } }] } },
    });
    expect(op.videos).toEqual([]);
  });
});

const sample = fc.record({ video: fc.record({ uri: veoVideoUri }) });
const operationWire = fc.record(
  {
    name: fc.constant(name),
    done: fc.boolean(),
    metadata: fc.record({ progressPercent: fc.double({ min: -1000, max: 1000, noNaN: true }) }),
    response: fc.record({
      generateVideoResponse: fc.record(
        {
          generatedSamples: fc.array(sample, { maxLength: 12 }),
          raiMediaFilteredCount: fc.nat({ max: 20 }),
          raiMediaFilteredReasons: fc.array(fc.string({ maxLength: 600 }), { maxLength: 12 }),
        },
        { requiredKeys: [] },
      ),
    }),
    error: fc.record({ code: fc.integer({ min: 1, max: 16 }), message: fc.string() }),
  },
  { requiredKeys: ["name"] },
);

describe("parseVeoOperation on generated operations", () => {
  it("accepts every schema-valid operation, keeps its links in order, and stays in bounds", () => {
    fc.assert(
      fc.property(operationWire, (wire) => {
        expect(veoOperationSchema.safeParse(wire).success).toBe(true);
        const op = parseVeoOperation(wire);
        const links = (wire.response?.generateVideoResponse?.generatedSamples ?? []).map(
          (s) => s.video.uri,
        );
        expect(op.videos.map((v) => v.uri)).toEqual(links.slice(0, VEO_LIMITS.videos));
        expect(op.done).toBe(wire.done === true);
        if (op.progress !== undefined) {
          expect(op.progress).toBeGreaterThanOrEqual(0);
          expect(op.progress).toBeLessThanOrEqual(100);
        }
        expect(op.blocked?.reasons.length ?? 0).toBeLessThanOrEqual(VEO_LIMITS.reasons);
        if (op.blocked !== undefined)
          expect(op.blocked.count).toBeGreaterThanOrEqual(op.blocked.reasons.length);
        expect(op.error === undefined).toBe(wire.error === undefined);
      }),
    );
  });
});
