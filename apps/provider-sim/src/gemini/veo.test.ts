import { describe, expect, it } from "vitest";
import { FIXED_NOW, post, useSim } from "../testing/http.ts";
import { movieSeconds, trackInfo, tracks } from "../testing/mp4-boxes.ts";
import { SAFETY_REASON } from "./veo-operation.ts";

let clock = FIXED_NOW;
const sim = useSim({ now: () => clock });
const fast = useSim({ veo: { pendingPolls: 0, pendingMs: 0 } });
const timed = useSim({ now: () => clock, veo: { pendingPolls: 0, pendingMs: 60_000 } });
const KEY = { "x-goog-api-key": "AIza-test" };
const MODEL = "veo-3.1-fast-generate-preview";
const RESPONSE_TYPE =
  "type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse";
const METADATA_TYPE =
  "type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningMetadata";
const PNG = "iVBORw0KGgo=";

type Instance = Record<string, unknown>;

const submit = (instance: Instance, parameters?: Record<string, unknown>, base = sim().url) =>
  post(
    `${base}/v1beta/models/${MODEL}:predictLongRunning`,
    { instances: [instance], ...(parameters ? { parameters } : {}) },
    KEY,
  );

async function start(instance: Instance, parameters?: Record<string, unknown>, base = sim().url) {
  const response = await submit(instance, parameters, base);
  expect(response.status).toBe(200);
  return ((await response.json()) as { name: string }).name;
}

// biome-ignore lint/suspicious/noExplicitAny: operation bodies are asserted field by field
const poll = async (name: string, base = sim().url): Promise<any> =>
  (await fetch(`${base}/v1beta/${name}`, { headers: KEY })).json();

/** Polls until done (bounded), returning the final operation. */
async function finish(name: string, base = sim().url) {
  for (let i = 0; i < 20; i++) {
    const op = await poll(name, base);
    if (op.done) return op;
  }
  throw new Error("operation never finished");
}

async function download(uri: string): Promise<Buffer> {
  const response = await fetch(uri, { headers: KEY });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("video/mp4");
  return Buffer.from(await response.arrayBuffer());
}

const uris = (op: {
  response: { generateVideoResponse: { generatedSamples: { video: { uri: string } }[] } };
}) => op.response.generateVideoResponse.generatedSamples.map((s) => s.video.uri);

async function badRequest(instance: Instance, parameters?: Record<string, unknown>) {
  const response = await submit(instance, parameters);
  expect(response.status).toBe(400);
  const { error } = await response.json();
  expect(error.status).toBe("INVALID_ARGUMENT");
  return error.message as string;
}

describe("Veo operations", () => {
  it("answers done: false with progress, then done: true with URIs that serve a real MP4", async () => {
    const name = await start({ prompt: "a cat surfing" }, { sampleCount: 2 });
    expect(name).toMatch(/^models\/veo-3\.1-fast-generate-preview\/operations\/[0-9a-f]{12}$/);
    expect(await poll(name)).toEqual({
      name,
      metadata: { "@type": METADATA_TYPE, progressPercent: 50 },
      done: false,
    });
    const done = await poll(name);
    expect(done).toEqual({
      name,
      done: true,
      response: {
        "@type": RESPONSE_TYPE,
        generateVideoResponse: {
          generatedSamples: [
            {
              video: {
                uri: expect.stringMatching(/\/v1beta\/files\/[0-9a-f]{16}:download\?alt=media$/),
              },
            },
            { video: { uri: expect.any(String) } },
          ],
        },
      },
    });
    const [first, second] = uris(done);
    const video = await download(first!);
    expect(movieSeconds(video)).toBe(8);
    expect(trackInfo(video, tracks(video)[0]!)).toMatchObject({ width: 1280, height: 720 });
    expect((await download(second!)).equals(video)).toBe(false);
    expect((await fetch(first!)).status).toBe(403); // the download needs the key too
    expect(await poll(name)).toEqual(done); // a finished operation stays finished
  });

  it("serves only videos it delivered", async () => {
    const missing = await fetch(`${sim().url}/v1beta/files/0123456789abcdef:download?alt=media`, {
      headers: KEY,
    });
    expect(missing.status).toBe(404);
    const name = await start({ prompt: "not yet" });
    expect((await poll(name)).done).toBe(false);
    const op = await poll(name);
    expect((await fetch(uris(op)[0]!.replace("/v1beta/", "/v1/"), { headers: KEY })).status).toBe(
      200,
    );
  });

  it("follows the requested duration, aspect ratio, resolution and audio", async () => {
    const name = await start(
      { prompt: "portrait" },
      { aspectRatio: "9:16", resolution: "1080p", durationSeconds: "8", generateAudio: false },
    );
    const video = await download(uris(await finish(name))[0]!);
    expect(movieSeconds(video)).toBe(8);
    expect(tracks(video).map((t) => trackInfo(video, t))).toMatchObject([
      { handler: "vide", width: 1080, height: 1920 },
    ]);
    const short = await download(
      uris(await finish(await start({ prompt: "short" }, { durationSeconds: 4 })))[0]!,
    );
    expect(movieSeconds(short)).toBe(4);
    expect(tracks(short)).toHaveLength(2); // a sound track by default
  });

  it("reports progress per poll with [[polls:N]] and finishes on the next", async () => {
    const name = await start({ prompt: "slow [[polls:3]]" });
    const progress = [];
    for (let i = 0; i < 3; i++) progress.push((await poll(name)).metadata.progressPercent);
    expect(progress).toEqual([25, 50, 75]);
    expect((await poll(name)).done).toBe(true);
  });

  it("finishes with an error on [[fail]]", async () => {
    const name = await start({ prompt: "boom [[fail]] [[polls:0]]" });
    expect(await poll(name)).toEqual({
      name,
      done: true,
      error: { code: 13, message: "Video generation failed (simulated)." },
    });
  });

  it("blocks samples on [[safety]], [[safety:N]] and [[safety:REASON]], like the RAI filter", async () => {
    const all = await finish(await start({ prompt: "bad [[safety]]" }, { sampleCount: 2 }));
    expect(all.response).toEqual({
      "@type": RESPONSE_TYPE,
      generateVideoResponse: { raiMediaFilteredCount: 2, raiMediaFilteredReasons: [SAFETY_REASON] },
    });
    const some = await finish(await start({ prompt: "half [[safety:1]]" }, { sampleCount: 2 }));
    expect(some.response.generateVideoResponse).toEqual({
      generatedSamples: [{ video: { uri: expect.any(String) } }],
      raiMediaFilteredCount: 1,
      raiMediaFilteredReasons: [SAFETY_REASON],
    });
    const reason = await finish(await start({ prompt: "x [[safety:Person detected.]]" }));
    expect(reason.response.generateVideoResponse).toEqual({
      raiMediaFilteredCount: 1,
      raiMediaFilteredReasons: ["Person detected."],
    });
  });

  it("answers 404 for an unknown operation", async () => {
    const response = await fetch(`${sim().url}/v1beta/models/veo/operations/nope`, {
      headers: KEY,
    });
    expect(response.status).toBe(404);
    expect((await response.json()).error.status).toBe("NOT_FOUND");
  });
});

describe("Veo extension", () => {
  it("extends a generated video by 7 seconds, and the result again", async () => {
    const source = uris(
      await finish(await start({ prompt: "a fox runs" }, { aspectRatio: "9:16" })),
    )[0]!;
    const once = uris(
      await finish(await start({ prompt: "it keeps running", video: { uri: source } })),
    )[0]!;
    const video = await download(once);
    expect(movieSeconds(video)).toBe(15);
    expect(trackInfo(video, tracks(video)[0]!)).toMatchObject({ width: 720, height: 1280 });
    const twice = uris(
      await finish(
        await start(
          { prompt: "and jumps", video: { uri: once } },
          { durationSeconds: 8, resolution: "720p" },
        ),
      ),
    )[0]!;
    expect(movieSeconds(await download(twice))).toBe(22);
  });

  it("accepts the file name form of the URI", async () => {
    const source = uris(await finish(await start({ prompt: "a" })))[0]!;
    const id = /files\/([0-9a-f]{16})/.exec(source)![1];
    await start({ prompt: "b", video: { uri: `files/${id}` } });
  });

  it("refuses videos it did not generate and settings extension does not support", async () => {
    expect(await badRequest({ prompt: "x", video: { uri: "https://example.com/v.mp4" } })).toMatch(
      /not a video generated by Veo/,
    );
    expect(
      await badRequest({
        prompt: "x",
        video: { uri: `${sim().url}/v1beta/files/0123456789abcdef:download?alt=media` },
      }),
    ).toMatch(/not a video generated by Veo/);
    const source = uris(await finish(await start({ prompt: "src" })))[0]!;
    expect(await badRequest({ prompt: "x", video: { uri: source } }, { durationSeconds: 6 })).toBe(
      "durationSeconds must be 8 when using extension.",
    );
    expect(await badRequest({ prompt: "x", video: { uri: source } }, { resolution: "1080p" })).toBe(
      "Video extension supports 720p resolution only.",
    );
    expect(await badRequest({ prompt: "x", video: { uri: source } }, { aspectRatio: "9:16" })).toBe(
      "aspectRatio must match the video being extended (16:9).",
    );
    expect(
      await badRequest({
        prompt: "x",
        video: { uri: source },
        image: { bytesBase64Encoded: PNG, mimeType: "image/png" },
      }),
    ).toMatch(/cannot be combined/);
  });
});

describe("Veo request validation", () => {
  it("accepts images as inlineData or bytesBase64Encoded, with lastFrame and reference images", async () => {
    const inline = { inlineData: { mimeType: "image/png", data: PNG } };
    const encoded = { bytesBase64Encoded: PNG, mimeType: "image/jpeg" };
    await start(
      { prompt: "i2v", image: inline },
      { resizeMode: "crop", personGeneration: "allow_adult" },
    );
    await start({ prompt: "frames", image: encoded, lastFrame: inline });
    await start(
      {
        prompt: "refs",
        referenceImages: [{ image: inline, referenceType: "asset" }, { image: encoded }],
      },
      { durationSeconds: 8, seed: 42, negativePrompt: "blur", enhancePrompt: true },
    );
  });

  it.each<[string, Instance | undefined, Record<string, unknown> | undefined, string | RegExp]>([
    ["no instances", undefined, undefined, "No instances in the request."],
    ["no prompt", {}, undefined, "instances[0].prompt is required."],
    [
      "an unknown instance field",
      { prompt: "x", mask: {} },
      undefined,
      /^`mask` isn't supported by this model/,
    ],
    [
      "an unknown parameter",
      { prompt: "x" },
      { fps: 24 },
      "`fps` isn't supported by this model. Please remove it or refer to the Gemini API documentation for supported usage.",
    ],
    [
      "the SDK name numberOfVideos",
      { prompt: "x" },
      { numberOfVideos: 2 },
      /^`numberOfVideos` isn't supported/,
    ],
    [
      "aspectRatio 1:1",
      { prompt: "x" },
      { aspectRatio: "1:1" },
      "aspectRatio must be one of 16:9, 9:16.",
    ],
    [
      "durationSeconds 5",
      { prompt: "x" },
      { durationSeconds: 5 },
      "durationSeconds must be one of 4, 6, 8.",
    ],
    [
      "1080p for 4 seconds",
      { prompt: "x" },
      { resolution: "1080p", durationSeconds: 4 },
      "durationSeconds must be 8 when using 1080p resolution.",
    ],
    [
      "resolution 8k",
      { prompt: "x" },
      { resolution: "8k" },
      "resolution must be one of 720p, 1080p, 4k.",
    ],
    [
      "sampleCount 5",
      { prompt: "x" },
      { sampleCount: 5 },
      "sampleCount must be an integer from 1 to 4.",
    ],
    [
      "a negative seed",
      { prompt: "x" },
      { seed: -1 },
      "seed must be an integer from 0 to 4294967295.",
    ],
    [
      "personGeneration everyone",
      { prompt: "x" },
      { personGeneration: "everyone" },
      /^personGeneration must be one of/,
    ],
    [
      "generateAudio as text",
      { prompt: "x" },
      { generateAudio: "yes" },
      "generateAudio must be a boolean.",
    ],
    [
      "resizeMode without an image",
      { prompt: "x" },
      { resizeMode: "pad" },
      "resizeMode applies to image-to-video only.",
    ],
    [
      "an image with a data field",
      { prompt: "x", image: { data: PNG, mimeType: "image/png" } },
      undefined,
      /^`data` isn't supported/,
    ],
    [
      "an image that is not base64",
      { prompt: "x", image: { bytesBase64Encoded: "%%%", mimeType: "image/png" } },
      undefined,
      /needs base64 image bytes/,
    ],
    [
      "an image of type gif",
      { prompt: "x", image: { bytesBase64Encoded: PNG, mimeType: "image/gif" } },
      undefined,
      /mimeType must be one of/,
    ],
    [
      "lastFrame alone",
      { prompt: "x", lastFrame: { bytesBase64Encoded: PNG, mimeType: "image/png" } },
      undefined,
      "lastFrame requires image (the first frame).",
    ],
    [
      "four reference images",
      {
        prompt: "x",
        referenceImages: Array(4).fill({
          image: { bytesBase64Encoded: PNG, mimeType: "image/png" },
        }),
      },
      undefined,
      "At most 3 reference images are supported.",
    ],
    [
      "reference images for 6 seconds",
      {
        prompt: "x",
        referenceImages: [{ image: { bytesBase64Encoded: PNG, mimeType: "image/png" } }],
      },
      { durationSeconds: 6 },
      "durationSeconds must be 8 when using reference images.",
    ],
  ])("refuses %s with 400 INVALID_ARGUMENT", async (_, instance, parameters, message) => {
    const body =
      instance === undefined
        ? { instances: [] }
        : { instances: [instance], ...(parameters ? { parameters } : {}) };
    const response = await post(
      `${sim().url}/v1beta/models/${MODEL}:predictLongRunning`,
      body,
      KEY,
    );
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.status).toBe("INVALID_ARGUMENT");
    if (typeof message === "string") expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
  });
});

describe("Veo timing", () => {
  it("in fast mode (pendingPolls 0, pendingMs 0) the first poll is done", async () => {
    const name = await start({ prompt: "quick" }, undefined, fast().url);
    expect((await poll(name, fast().url)).done).toBe(true);
  });

  it("follows the injected clock for pendingMs, with progress by elapsed time", async () => {
    clock = FIXED_NOW;
    const name = await start({ prompt: "clocked" }, undefined, timed().url);
    expect((await poll(name, timed().url)).metadata.progressPercent).toBe(0);
    clock = FIXED_NOW + 30_000;
    expect(await poll(name, timed().url)).toMatchObject({
      done: false,
      metadata: { progressPercent: 50 },
    });
    clock = FIXED_NOW + 59_999;
    expect((await poll(name, timed().url)).done).toBe(false);
    clock = FIXED_NOW + 60_000;
    expect((await poll(name, timed().url)).done).toBe(true);
    clock = FIXED_NOW;
  });
});
