import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, KEY, postJson, type Stack, UPSTREAM_KEY } from "./stack.ts";
import { mediaChannels, startTaskStack } from "./tasks-support.ts";
import type { Json } from "./wire.ts";

// Issue 25: the official `openai` SDK's images.generate and audio.speech.create as clients call
// them. Images answer OpenAI's synchronous ImagesResponse under the bare envelope or with
// `Prefer: wait`; the spec envelope keeps the API reference's asynchronous acknowledgement.

const BARE = { "x-interlingua-envelope": "bare" };
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

describe("images and speech through the openai SDK", () => {
  let stack: Stack;
  let client: OpenAI;
  beforeAll(async () => {
    stack = await startTaskStack({
      extraChannels: (url) => [
        ...mediaChannels(url),
        {
          name: "tts-wav-only",
          protocol: "openai",
          base_url: url,
          api_key: UPSTREAM_KEY,
          models: { "tts-wav": "txtA-4o-mini-tts" },
          speech_formats: ["wav", "pcm"],
        },
        {
          name: "tts",
          protocol: "openai",
          base_url: url,
          api_key: UPSTREAM_KEY,
          models: ["txtA-4o-mini-tts"],
        },
      ],
    });
    client = new OpenAI({
      apiKey: KEY,
      baseURL: `${stack.gateway.url}/v1`,
      defaultHeaders: BARE,
      maxRetries: 0,
      timeout: 10_000,
    });
  });
  afterAll(() => stack.close());

  const imageBodies = () =>
    stack.sim.requests
      .filter((r) => /images\/generations$|image-preview:generateContent/.test(r.path))
      .map((r) => r.body as Json);

  for (const model of ["txtA-image-2", "txtC-3-pro-image-preview"]) {
    it(`images.generate with n and b64_json answers the images themselves (${model})`, async () => {
      const before = imageBodies().length;
      const result = await client.images.generate({
        model,
        prompt: "a lighthouse",
        n: 2,
        response_format: "b64_json",
        user: "end-user-7",
      });
      expect(result.created).toBeGreaterThan(0);
      expect(result.data).toHaveLength(2);
      for (const image of result.data ?? []) {
        expect(Buffer.from(image.b64_json ?? "", "base64").subarray(0, 4)).toEqual(PNG);
        expect(image.url).toBeUndefined();
      }
      const sent = imageBodies().slice(before);
      if (model === "txtA-image-2") {
        // One call for both images; the user id reaches OpenAI.
        expect(sent).toHaveLength(1);
        expect(sent[0]).toMatchObject({ n: 2, user: "end-user-7" });
        // OpenAI reported its usage: the answer carries it, as OpenAI's does.
        expect(result.usage?.output_tokens).toBeGreaterThan(0);
      } else {
        expect(sent).toHaveLength(2);
      }
    });

    it(`images.generate with SDK defaults answers URLs the gateway serves (${model})`, async () => {
      const result = await client.images.generate({ model, prompt: "a harbour" });
      expect(result.data).toHaveLength(1);
      const url = result.data?.[0]?.url as string;
      expect(url.startsWith(stack.gateway.url)).toBe(true);
      const got = await fetch(url);
      expect(got.status).toBe(200);
      expect(Buffer.from(await got.arrayBuffer()).subarray(0, 4)).toEqual(PNG);
    });
  }

  it("quality and style: mapped or dropped, and said so", async () => {
    const { data, response } = await client.images
      .generate({ model: "txtA-image-2", prompt: "x", quality: "hd", style: "vivid" })
      .withResponse();
    expect(data.data).toHaveLength(1);
    const warnings = response.headers.get("x-interlingua-warnings") ?? "";
    expect(warnings).toContain("quality=mapped");
    expect(warnings).toContain("style=dropped");
    expect(imageBodies().at(-1)).toMatchObject({ quality: "high" });
    expect(imageBodies().at(-1)).not.toHaveProperty("style");
  });

  it("the spec envelope keeps the API reference's acknowledgement; Prefer: wait asks for the images", async () => {
    const body = { model: "txtA-image-2", prompt: "spec" };
    const ack = await postJson(`${stack.gateway.url}/v1/images/generations`, body);
    expect(ack.status).toBe(200);
    expect(ack.json).toEqual({
      code: 200,
      data: [{ status: "submitted", task_id: expect.any(String) }],
    });

    const waited = await postJson(`${stack.gateway.url}/v1/images/generations`, body, {
      ...auth(),
      prefer: "wait=30",
    });
    expect(waited.status).toBe(200);
    expect(waited.headers.get("preference-applied")).toBe("wait=30");
    expect(waited.json.code).toBe(200);
    expect(waited.json.data.data[0].url).toMatch(/\/files\//);

    // Not done in time: 202 with the task, to poll.
    const late = await postJson(`${stack.gateway.url}/v1/images/generations`, body, {
      ...auth(),
      ...BARE,
      prefer: "wait=0",
    });
    expect(late.status).toBe(202);
    expect(late.json.id).toMatch(/^task_/);
    expect(["pending", "processing", "completed"]).toContain(late.json.status);

    // A bare client may still ask for the acknowledgement.
    const async = await postJson(`${stack.gateway.url}/v1/images/generations`, body, {
      ...auth(),
      ...BARE,
      prefer: "respond-async",
    });
    expect(async.json).toEqual([{ status: "submitted", task_id: expect.any(String) }]);
  });

  it("a failed image task is the error OpenAI would answer", async () => {
    const error = await client.images
      .generate({ model: "txtA-image-2", prompt: "boom [[fault:status=400]]" })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBeGreaterThanOrEqual(400);
  });

  it("audio.speech.create: SDK defaults, and mp3 (OpenAI's default) when asked", async () => {
    const plain = await client.audio.speech.create({
      model: "txtA-4o-mini-tts",
      input: "hello there",
      voice: "alloy",
    });
    expect(plain.status).toBe(200);
    expect((await plain.arrayBuffer()).byteLength).toBeGreaterThan(100);

    const mp3 = await client.audio.speech.create({
      model: "txtA-4o-mini-tts",
      input: "hello there",
      voice: "alloy",
      response_format: "mp3",
    });
    expect(mp3.headers.get("content-type")).toBe("audio/mpeg");
    const bytes = Buffer.from(await mp3.arrayBuffer());
    expect(bytes.toString("latin1", 0, 3) === "ID3" || bytes[0] === 0xff).toBe(true);
    const sent = stack.sim.requests.filter((r) => r.path.endsWith("/audio/speech")).at(-1);
    expect(sent?.body).toMatchObject({ response_format: "mp3" });
  });

  it("a channel that cannot produce mp3: a 400 naming the formats it does", async () => {
    const error = await client.audio.speech
      .create({ model: "tts-wav", input: "x", voice: "alloy", response_format: "mp3" })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain("wav, pcm");
    const wav = await client.audio.speech.create({
      model: "tts-wav",
      input: "x",
      voice: "alloy",
      response_format: "wav",
    });
    expect(wav.headers.get("content-type")).toBe("audio/wav");
  });
});
