import { taskResourceSchema } from "@interlingua/tasks/schemas";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gifFirstFrameAsPng } from "../src/tasks/gif-first-frame.ts";
import { auth, eventuallyAsync, KEY, postJson, type Stack, tokenRow } from "./stack.ts";
import { stackDatabases } from "./storage/drivers.ts";
import {
  ackId,
  download,
  getJson,
  isMp4,
  isPng,
  settled,
  startTaskStack,
} from "./tasks-support.ts";
import { gif } from "./uploads-images.ts";
import type { Json } from "./wire.ts";

// The asynchronous generation endpoints end to end (issue 13): real HTTP through the gateway to
// the simulator's Veo operations and image endpoints, results downloaded from public_url, on
// SQLite and PostgreSQL.

const drivers = await stackDatabases();

const WARNINGS = "x-interlingua-warnings";
const STRICT = { "x-interlingua-strict": "true" };

const BOB_KEY = "sk-test-bob";
/** A metered key: 2,000,000 credits (= 4 USD) */
const METERED_KEY = "sk-test-metered";
const METERED_QUOTA = 2_000_000;
/** Too little for any task. */
const POOR_KEY = "sk-test-poor";

const users = [
  { id: "alice", quota: 1_000_000_000_000 },
  { id: "bob", quota: 1_000_000_000 },
];
const tokens = [
  { key: KEY, user: "alice", unlimited: true },
  { key: METERED_KEY, user: "alice", quota: METERED_QUOTA },
  { key: POOR_KEY, user: "alice", quota: 100 },
  { key: BOB_KEY, user: "bob", unlimited: true },
];

describe.each(drivers)("task endpoints ($name)", ({ databaseUrl }) => {
  let stack: Stack;
  let base: string;
  const submit = (path: string, body: unknown, key = KEY, headers: Record<string, string> = {}) =>
    postJson(`${base}${path}`, body, { ...auth(key), ...headers });
  const video = (body: Record<string, unknown>, key = KEY, headers: Record<string, string> = {}) =>
    submit(
      "/v1/videos/generations",
      { model: "vidV3.1-fast", prompt: "a cat", ...body },
      key,
      headers,
    );
  const image = (body: Record<string, unknown>, key = KEY) =>
    submit("/v1/images/generations", { model: "txtA-image-2", prompt: "a cat", ...body }, key);
  const logsOf = (requestId: string) =>
    stack.gateway.services.store
      .queryLogs({ userId: "alice" }, { offset: 0, limit: 500 })
      .then((page) => page.items.filter((row) => row.requestId === requestId));

  beforeAll(async () => {
    stack = await startTaskStack({ databaseUrl, users, tokens });
    base = stack.gateway.url;
  });
  afterAll(() => stack.close());

  it("standard video: acknowledged, polled to completed, MP4 bytes served from public_url", async () => {
    const sub = await video({ aspect_ratio: "9:16", resolution: "1080p" });
    expect(sub.status).toBe(200);
    const id = ackId(sub.json);
    expect(id).toMatch(/^task_[0-9A-Za-z]{24}$/);
    const task = await settled(stack, id);
    expect(taskResourceSchema.safeParse(task).success).toBe(true);
    expect(task).toMatchObject({
      id,
      status: "completed",
      progress: 100,
      estimated_time: expect.any(Number),
    });
    // 8 s at 0.15 USD/s = 1.2 USD; 500000 credits per USD.
    expect(task.cost).toBe(1.2);
    expect(task.credits_cost).toBe(600_000);
    const [entry] = task.result.videos;
    expect(entry.url).toHaveLength(1);
    expect(entry.expires_at - task.completed).toBeGreaterThanOrEqual(24 * 3600 - 5);
    expect(entry.url[0].startsWith(`${base}/files/`)).toBe(true);
    const file = await download(entry.url[0]);
    expect(file.status).toBe(200);
    expect(isMp4(file.bytes)).toBe(true);
    // The upstream got Veo's parameters in its own spelling.
    const predict = stack.sim.requests.find(
      (r) => r.path.endsWith(":predictLongRunning") && JSON.stringify(r.body).includes('"9:16"'),
    );
    expect(predict?.path).toContain("/v1beta/models/vidV3.1-fast:predictLongRunning");
    expect((predict as Json).body.parameters).toMatchObject({
      aspectRatio: "9:16",
      resolution: "1080p",
      durationSeconds: 8,
    });
  });

  it("official variant: sample_count videos, charged per generated second", async () => {
    const sub = await video({
      model: "vidV3.1-fast-official",
      duration: 4,
      sample_count: 2,
      seed: 7,
    });
    const task = await settled(stack, ackId(sub.json));
    expect(task.status).toBe("completed");
    expect(task.result.videos[0].url).toHaveLength(2);
    for (const url of task.result.videos[0].url)
      expect(isMp4((await download(url)).bytes)).toBe(true);
    // 2 x 4 s at 0.15 USD/s.
    expect(task.cost).toBe(1.2);
    const predict = stack.sim.requests.find((r) =>
      r.path.includes("vidV3.1-fast-official:predictLongRunning"),
    );
    expect((predict as Json).body.parameters).toMatchObject({
      durationSeconds: 4,
      sampleCount: 2,
      seed: 7,
      enhancePrompt: true,
      personGeneration: "allow_adult",
    });
  });

  it("remix: continues the source's upstream video as a new task", async () => {
    const source = await settled(stack, ackId((await video({ model: "vidV3.1-fast-ext" })).json));
    expect(source.status).toBe("completed");
    const sub = await submit(`/v1/videos/${source.id}/remix`, {
      model: "vidV3.1-fast",
      prompt: "and then",
    });
    expect(sub.status).toBe(200);
    const id = ackId(sub.json);
    expect(id).not.toBe(source.id);
    const task = await settled(stack, id);
    expect(task.status).toBe("completed");
    expect(isMp4((await download(task.result.videos[0].url[0])).bytes)).toBe(true);
    // The extension was asked of the source's own upstream video, 7 s billed.
    const extend = stack.sim.requests.filter((r) =>
      JSON.stringify(r.body ?? "").includes("and then"),
    );
    const instance = (extend.at(-1) as Json).body.instances[0];
    expect(instance.video.uri).toMatch(/^http/);
    expect(task.cost).toBe(1.05);
  });

  it("remix: unknown source 404 not_found_error, unfinished source 400, other model family 400", async () => {
    const unknown = await submit("/v1/videos/task_AAAAAAAAAAAAAAAAAAAAAAAA/remix", {
      model: "vidV3.1-fast",
      prompt: "x",
    });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toMatchObject({ code: 404, type: "not_found_error" });
    const badId = await submit("/v1/videos/nope/remix", { model: "vidV3.1-fast", prompt: "x" });
    expect(badId.status).toBe(400);
    const running = ackId((await video({ prompt: "slow [[polls:100000]]" })).json);
    const early = await submit(`/v1/videos/${running}/remix`, {
      model: "vidV3.1-fast",
      prompt: "x",
    });
    expect(early.status).toBe(400);
    expect(early.json.error).toMatchObject({
      code: 400,
      type: "invalid_request_error",
      param: "task_id",
    });
    const done = await settled(stack, ackId((await video({})).json));
    const other = await submit(`/v1/videos/${done.id}/remix`, {
      model: "vidV3.1-quality",
      prompt: "x",
    });
    expect(other.status).toBe(400);
    expect(other.json.error.param).toBe("model");
    // Another user's video is not theirs to remix: 404 like an unknown one.
    const bobs = await submit(
      `/v1/videos/${done.id}/remix`,
      { model: "vidV3.1-fast", prompt: "x" },
      BOB_KEY,
    );
    expect(bobs.status).toBe(404);
  });

  it.each([
    ["txtA-image-2", "1024x1536"],
    ["txtC-3-pro-image-preview", "16:9"],
  ])("images via %s: PNG served, same body on both status paths", async (model, size) => {
    const sub = await image({ model, size });
    expect(sub.status).toBe(200);
    // A size the upstream has exactly: nothing approximated, nothing to warn.
    expect(sub.headers.get(WARNINGS)).toBeNull();
    const id = ackId(sub.json);
    const task = await settled(stack, id);
    expect(task.status).toBe("completed");
    const [entry] = task.result.images;
    const file = await download(entry.url[0]);
    expect(file.status).toBe(200);
    expect(isPng(file.bytes)).toBe(true);
    const sent = stack.sim.requests
      .filter((r) => JSON.stringify(r.body ?? "").includes(`"${size}"`))
      .at(-1) as Json;
    if (model === "txtA-image-2") expect(sent.body).toMatchObject({ model, size });
    else
      expect(sent.body.generationConfig).toMatchObject({
        responseModalities: ["TEXT", "IMAGE"],
        imageConfig: { aspectRatio: size },
      });
    const alternate = await getJson(`${base}/v1/images/generations/${id}`);
    expect(alternate.json).toEqual({ code: 200, data: task });
  });

  const DOT_PNG = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    "base64",
  );
  const firstFrame = (bytes: Buffer) => {
    const converted = gifFirstFrameAsPng(bytes);
    if (!converted.ok) throw new Error(converted.message);
    return converted.png;
  };
  // A GIF goes up as a PNG of its first frame: Gemini and Veo take no GIF.
  it.each([
    { name: "dot.png", type: "image/png", bytes: DOT_PNG, sent: DOT_PNG },
    { name: "dot.gif", type: "image/gif", bytes: gif(), sent: firstFrame(gif()) },
  ])(
    "Gemini images take an uploaded $type inline, as a PNG",
    async ({ name, type, bytes, sent }) => {
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
      const upload = await fetch(`${base}/v1/uploads/images`, {
        method: "POST",
        headers: auth(),
        body: form,
      });
      expect(upload.status).toBe(200);
      const { url } = (await upload.json()) as { url: string };
      const prompt = `edit ${name}`;
      const sub = await image({ model: "txtC-3-pro-image-preview", prompt, image_urls: [{ url }] });
      const task = await settled(stack, ackId(sub.json));
      expect(task.status).toBe("completed");
      const request = stack.sim.requests
        .filter((r) => JSON.stringify(r.body ?? "").includes(prompt))
        .at(-1);
      const inline = (request as Json).body.contents[0].parts[1].inlineData;
      expect(inline).toEqual({ mimeType: "image/png", data: sent.toString("base64") });
      expect(isPng(Buffer.from(inline.data, "base64"))).toBe(true);
    },
  );

  it.each([
    ["/v1/videos/generations", { model: "vidV3.1-fast", prompt: "x", duration: 6 }, "duration"],
    [
      "/v1/videos/generations",
      { model: "vidV3.1-fast", prompt: "x", enable_gif: true, resolution: "4k" },
      "enable_gif",
    ],
    [
      "/v1/videos/generations",
      { model: "vidV3.1-lite", prompt: "x", image_urls: ["https://example.com/a.png"] },
      "image_urls",
    ],
    [
      "/v1/videos/generations",
      {
        model: "vidV3.1-fast",
        prompt: "x",
        image_urls: [
          "https://e.com/1.png",
          "https://e.com/2.png",
          "https://e.com/3.png",
          "https://e.com/4.png",
        ],
      },
      "image_urls",
    ],
    ["/v1/videos/generations", { model: "vidV3.1-fast-official", prompt: "x", seed: -1 }, "seed"],
    [
      "/v1/videos/generations",
      { model: "vidV3.1-fast-official", prompt: "x", enhance_prompt: false },
      "enhance_prompt",
    ],
    [
      "/v1/videos/generations",
      { model: "vidV3.1-fast-official", prompt: "x", duration: "8" },
      "duration",
    ],
    ["/v1/videos/generations", { model: "vidV3.1-fast", prompt: "" }, "prompt"],
    [
      "/v1/images/generations",
      { model: "txtA-image-2", prompt: "x", image_urls: ["data:image/png;base64,AAAA"] },
      "image_urls[0]",
    ],
    ["/v1/images/generations", { model: "txtA-image-2", prompt: "x", size: "big" }, "size"],
    [
      "/v1/images/generations",
      { model: "txtA-image-2", prompt: "x", image_urls: [{ url: "https://example.com/a.png" }] },
      "image_urls",
    ],
  ])("%s %j: 400 naming %s", async (path, body, param) => {
    const reply = await submit(path, body);
    expect(reply.status).toBe(400);
    expect(reply.json.error).toMatchObject({ code: 400, type: "invalid_request_error", param });
  });

  it("bad JSON, unknown model, no key", async () => {
    expect((await submit("/v1/videos/generations", "{")).status).toBe(400);
    const unknown = await submit("/v1/images/generations", { model: "txtA-5", prompt: "x" });
    expect(unknown.status).toBe(400);
    const noKey = await postJson(
      `${base}/v1/videos/generations`,
      { model: "vidV3.1-fast", prompt: "x" },
      {},
    );
    expect(noKey.status).toBe(401);
    expect(noKey.json.error).toMatchObject({ code: 401, type: "authentication_error" });
  });

  it("no key is a 401 whatever the body's Content-Type; with a key, still a 415", async () => {
    // docs/api-reference.md Authentication: a missing key gives 401. The body is never read.
    for (const path of ["/v1/videos/generations", "/v1/images/generations", "/v1/audio/speech"]) {
      const send = (headers: Record<string, string>) =>
        fetch(`${base}${path}`, { method: "POST", headers, body: "model=x" });
      const anonymous = await send({ "content-type": "text/plain" });
      expect(anonymous.status, path).toBe(401);
      expect(await anonymous.json()).toMatchObject({
        error: { code: 401, type: "authentication_error" },
      });
      const keyed = await send({ ...auth(), "content-type": "text/plain" });
      expect(keyed.status, path).toBe(415);
    }
  });

  it("task ids: malformed 400, unknown 404, another user's 404", async () => {
    const bad = await getJson(`${base}/v1/tasks/not-a-task`);
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ code: 400, type: "invalid_request_error" });
    const unknown = await getJson(`${base}/v1/tasks/task_AAAAAAAAAAAAAAAAAAAAAAAA`);
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toMatchObject({ code: 404, type: "not_found_error" });
    const id = ackId((await image({})).json);
    expect((await getJson(`${base}/v1/tasks/${id}`, auth(BOB_KEY))).status).toBe(404);
    expect((await getJson(`${base}/v1/tasks/${id}`)).status).toBe(200);
  });

  it("a safety block fails the task, localized by ?language=, and refunds the hold", async () => {
    const before = await tokenRow(stack, METERED_KEY);
    const sub = await video({ prompt: "forbidden [[safety]]" }, METERED_KEY);
    const id = ackId(sub.json);
    const task = await settled(stack, id);
    expect(task.status).toBe("failed");
    expect(task.error).toMatchObject({
      code: "content_policy_violation",
      type: "invalid_request_error",
    });
    expect(task.error.message).toMatch(/^The request was blocked by the content safety policy\./);
    expect(task).not.toHaveProperty("result");
    expect(task.cost).toBe(0);
    const zh = await settled(stack, id, "?language=zh");
    expect(zh.error.message).toMatch(/^请求因违反内容安全策略被拦截。/);
    expect((await settled(stack, id, "?language=zh-CN")).error.message).toBe(task.error.message);
    const after = await tokenRow(stack, METERED_KEY);
    expect(after.used).toBe(before.used);
    expect(after.reserved).toBe(0);
    const requestId = sub.headers.get("x-request-id") ?? "";
    const rows = await eventuallyAsync(
      () => logsOf(requestId),
      (r) => r.length === 1,
    );
    expect(rows[0]).toMatchObject({
      credits: 0,
      status: 400,
      endpoint: "videos",
      model: "vidV3.1-fast",
    });
    expect(rows[0]?.error).toContain("content safety policy");
  });

  it("image safety refusals fail as content policy violations on both upstreams", async () => {
    const cases = [
      ["txtA-image-2", "bad [[safety]]"],
      ["txtC-3-pro-image-preview", "bad [[safety]]"],
      ["txtC-3-pro-image-preview", "bad [[safety:prompt]]"],
    ];
    for (const [model, prompt] of cases) {
      const task = await settled(stack, ackId((await image({ model, prompt })).json));
      expect(task.status, `${model} ${prompt}`).toBe("failed");
      expect(task.error.code).toBe("content_policy_violation");
      expect(task.error.type).toBe("invalid_request_error");
    }
  });

  it("settles the real cost once: usage row, token used, nothing left reserved", async () => {
    const before = await tokenRow(stack, METERED_KEY);
    const sub = await video({}, METERED_KEY);
    const held = await tokenRow(stack, METERED_KEY);
    expect(held.reserved).toBeGreaterThanOrEqual(600_000);
    const task = await settled(stack, ackId(sub.json));
    expect(task.status).toBe("completed");
    const after = await tokenRow(stack, METERED_KEY);
    expect(after.used - before.used).toBe(600_000);
    expect(after.reserved).toBe(0);
    const rows = await eventuallyAsync(
      () => logsOf(sub.headers.get("x-request-id") ?? ""),
      (r) => r.length === 1,
    );
    expect(rows[0]).toMatchObject({ credits: 600_000, cost: 1.2, status: 200, endpoint: "videos" });
  });

  it("402 payment_required when the hold is not covered, and no task is made", async () => {
    const reply = await video({}, POOR_KEY);
    expect(reply.status).toBe(402);
    expect(reply.json.error).toMatchObject({ code: 402, type: "payment_required" });
    expect((await tokenRow(stack, POOR_KEY)).reserved).toBe(0);
    const rows = await eventuallyAsync(
      () => logsOf(reply.headers.get("x-request-id") ?? ""),
      (r) => r.length === 1,
    );
    expect(rows[0]).toMatchObject({ status: 402, credits: 0, endpoint: "videos" });
  });

  it("Idempotency-Key: the same key answers the first task, billed once", async () => {
    const before = await tokenRow(stack, METERED_KEY);
    const key = { "idempotency-key": `idem-${Math.random()}` };
    const firstReply = await video({ prompt: "once" }, METERED_KEY, key);
    expect(firstReply.headers.get("idempotent-replayed")).toBeNull();
    const first = ackId(firstReply.json);
    const secondReply = await video({ prompt: "once" }, METERED_KEY, key);
    expect(secondReply.headers.get("idempotent-replayed")).toBe("true");
    const second = ackId(secondReply.json);
    expect(second).toBe(first);
    const third = ackId((await video({ prompt: "once" }, METERED_KEY)).json);
    expect(third).not.toBe(first);
    await settled(stack, first);
    await settled(stack, third);
    const after = await tokenRow(stack, METERED_KEY);
    expect(after.used - before.used).toBe(2 * 600_000);
    // Another user's identical key is another task.
    const bobs = ackId((await video({ prompt: "once" }, BOB_KEY, key)).json);
    expect(bobs).not.toBe(first);
  });

  it("enable_gif: no GIF is made, so the submit says enable_gif=dropped; strict refuses it", async () => {
    const sub = await video({ enable_gif: true });
    expect(sub.status).toBe(200);
    expect(sub.headers.get(WARNINGS)).toBe("enable_gif=dropped");
    const task = await settled(stack, ackId(sub.json));
    expect(task.status).toBe("completed");
    expect(task.result.videos[0].url).toHaveLength(1);
    expect(isMp4((await download(task.result.videos[0].url[0])).bytes)).toBe(true);
    // Without the field (or with false) there is nothing to say.
    expect((await video({ enable_gif: false })).headers.get(WARNINGS)).toBeNull();

    const before = await tokenRow(stack, METERED_KEY);
    const strict = await video({ enable_gif: true }, METERED_KEY, STRICT);
    expect(strict.status).toBe(400);
    expect(strict.json.error).toMatchObject({
      code: 400,
      type: "invalid_request_error",
      param: "enable_gif",
      message: expect.stringContaining("enable_gif"),
    });
    // Refused before the hold: nothing reserved, nothing charged.
    expect(await tokenRow(stack, METERED_KEY)).toMatchObject({
      used: before.used,
      reserved: before.reserved,
    });
    expect((await video({ enable_gif: false }, KEY, STRICT)).status).toBe(200);
  });

  it("remix raw: Veo returns the whole clip, so the submit says raw=dropped; strict refuses it", async () => {
    const source = await settled(stack, ackId((await video({})).json));
    const remix = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      submit(
        `/v1/videos/${source.id}/remix`,
        { model: "vidV3.1-fast", prompt: "on", ...body },
        KEY,
        headers,
      );
    const sub = await remix({ raw: true });
    expect(sub.status).toBe(200);
    expect(sub.headers.get(WARNINGS)).toBe("raw=dropped");
    expect((await settled(stack, ackId(sub.json))).status).toBe("completed");
    expect((await remix({})).headers.get(WARNINGS)).toBeNull();

    const strict = await remix({ raw: true }, STRICT);
    expect(strict.status).toBe(400);
    expect(strict.json.error).toMatchObject({ code: 400, param: "raw" });
  });

  it("a language outside the API reference's ten is ignored as the API reference says, and named: language=dropped", async () => {
    const sub = await video({ language: "zh-CN" });
    expect(sub.status).toBe(200);
    expect(sub.headers.get(WARNINGS)).toBe("language=dropped");
    const row = await stack.gateway.services.store.tasks.get(ackId(sub.json));
    expect(row?.language).toBeUndefined();
    expect((await video({ language: " ZH " })).headers.get(WARNINGS)).toBeNull();
    const strict = await video({ language: "zh-CN", enable_gif: true }, KEY, STRICT);
    expect(strict.status).toBe(400);
    expect(strict.json.error.param).toBe("enable_gif");
    const both = await video({ language: "klingon", enable_gif: true });
    expect(both.headers.get(WARNINGS)).toBe("enable_gif=dropped,language=dropped");
    // A read in an unsupported language: the original message, and the header says why.
    const id = ackId(sub.json);
    const read = await getJson(`${base}/v1/tasks/${id}?language=zh-CN`);
    expect(read.status).toBe(200);
    expect(read.headers.get(WARNINGS)).toBe("language=dropped");
    expect((await getJson(`${base}/v1/tasks/${id}?language=zh`)).headers.get(WARNINGS)).toBeNull();
  });

  it("an image size the upstream has only approximately: size=mapped, which strict lets through", async () => {
    const sub = await image({ size: "16:9" });
    expect(sub.status).toBe(200);
    expect(sub.headers.get(WARNINGS)).toBe("size=mapped");
    const strict = await submit(
      "/v1/images/generations",
      { model: "txtA-image-2", prompt: "a cat", size: "16:9" },
      KEY,
      STRICT,
    );
    expect(strict.status).toBe(200);
    expect(strict.headers.get(WARNINGS)).toBe("size=mapped");
    await settled(stack, ackId(sub.json));
    await settled(stack, ackId(strict.json));
  });

  it("envelope: bare answers the data alone", async () => {
    const sub = await video({}, KEY, { "x-interlingua-envelope": "bare" });
    expect(sub.json).toEqual([{ status: "submitted", task_id: expect.any(String) }]);
    const id = sub.json[0].task_id;
    await settled(stack, id);
    const bare = await getJson(`${base}/v1/tasks/${id}`, {
      ...auth(),
      "x-interlingua-envelope": "bare",
    });
    expect(bare.json).toMatchObject({ id, status: "completed" });
  });

  it("a webhook URL that breaks the API reference's rules is dropped silently: the task runs, no push owed", async () => {
    const sub = await video({ webhook: "http://10.0.0.1/hooks" });
    expect(sub.status).toBe(200);
    const id = ackId(sub.json);
    const row = await stack.gateway.services.store.tasks.get(id);
    expect(row?.webhookUrl).toBeUndefined();
    expect((await settled(stack, id)).status).toBe("completed");
  });
});
