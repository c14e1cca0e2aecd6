import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { breakerKey } from "../src/routing/model-router.ts";
import { auth, eventuallyAsync, KEY, postJson, type Stack, startStack } from "./stack.ts";
import { stackDatabases } from "./storage/drivers.ts";
import { FAST_TASKS, getJson, mediaChannels } from "./tasks-support.ts";
import type { Json } from "./wire.ts";

// The /api routes the dashboard reads besides the token and log ones (docs/api-reference.md,
// management API): the admin role from the config's `admins`, channel health, users, the task
// and stored-response listings, and the log's status filter.
const drivers = await stackDatabases();

describe.each(drivers)("management routes behind the dashboard ($name)", ({ databaseUrl }) => {
  let stack: Stack;
  let base: string;
  let receiver: Server;
  let hookUrl: string;
  let plainKey: string;

  beforeAll(async () => {
    receiver = createServer((_req, res) => {
      res.statusCode = 204;
      res.end();
    });
    await new Promise<void>((done) => receiver.listen(0, "127.0.0.1", done));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    stack = await startStack(
      {
        extraChannels: mediaChannels,
        admins: [KEY],
        webhooks: { allow_private_targets: true },
        databaseUrl,
      },
      { tasks: FAST_TASKS },
    );
    base = stack.gateway.url;
    const created = await postJson(`${base}/api/token`, { name: "plain", remain_quota: 1000 });
    plainKey = created.json.data.key as string;
  });

  afterAll(async () => {
    await stack?.close();
    await new Promise((done) => receiver?.close(done));
  });

  it("names the role of the caller's key", async () => {
    expect((await getJson(`${base}/api/user/self`)).json.data.role).toBe("admin");
    expect((await getJson(`${base}/api/user/self`, auth(plainKey))).json.data.role).toBe("user");
  });

  it("shows channel health to admin keys only", async () => {
    const refused = await getJson(`${base}/api/admin/channels`, auth(plainKey));
    expect(refused.status).toBe(403);
    expect(refused.json.success).toBe(false);
    const call = await postJson(`${base}/v1/chat/completions`, {
      model: "txtA-5",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(call.status).toBe(200);
    stack.gateway.services.router.breaker.trip(breakerKey("an", "txtB-sonnet-4-6"));
    const { json } = await getJson(`${base}/api/admin/channels`);
    const channels = json.data.items as Json[];
    expect(channels.map((c: Json) => c.name)).toEqual(["oa", "an", "ge", "ge-media", "oa-media"]);
    const oa = channels.find((c: Json) => c.name === "oa");
    expect(oa.calls).toBeGreaterThanOrEqual(1);
    expect(oa.error_rate).toBe(0);
    expect(oa.latency_p50_ms).toBeGreaterThanOrEqual(0);
    expect(oa.breaker).toBe("closed");
    const an = channels.find((c: Json) => c.name === "an");
    expect(an.breaker).toBe("open");
    const route = an.routes.find((r: Json) => r.model === "txtB-sonnet-4-6");
    expect(route.breaker).toBe("open");
    expect(route.cooldown_until).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
  });

  it("lists users and quotas to admin keys only", async () => {
    expect((await getJson(`${base}/api/admin/users`, auth(plainKey))).status).toBe(403);
    const { json } = await getJson(`${base}/api/admin/users`);
    expect(json.data.items.map((u: Json) => u.id)).toEqual(["alice"]);
    expect(json.data.items[0].quota).toBe(1_000_000_000_000);
  });

  it("filters the log by status", async () => {
    // One more successful call, so both the whole log and the `ok` rows hold several.
    await postJson(`${base}/v1/chat/completions`, {
      model: "txtA-5",
      messages: [{ role: "user", content: "counted" }],
    });
    const all = await eventuallyAsync(
      () => getJson(`${base}/api/log/self?page_size=100`),
      (r) => r.json.data.total >= 2,
    );
    const okRows = await getJson(`${base}/api/log/self?status=ok&page_size=100`);
    const errorRows = await getJson(`${base}/api/log/self?status=error&page_size=100`);
    expect(okRows.json.data.items.every((r: Json) => r.status < 400)).toBe(true);
    expect(errorRows.json.data.items.every((r: Json) => r.status >= 400)).toBe(true);
    expect(okRows.json.data.total + errorRows.json.data.total).toBe(all.json.data.total);
    const exact = await getJson(`${base}/api/log/self/stat?status=200`);
    expect(exact.json.data.requests).toBe(okRows.json.data.total);
    expect((await getJson(`${base}/api/log/self?status=teapot`)).status).toBe(400);
    // The daily groups add up to the totals, one group per (UTC day, model).
    const daily = (await getJson(`${base}/api/log/self/daily`)).json.data.items as Json[];
    const stat = (await getJson(`${base}/api/log/self/stat`)).json.data;
    expect(daily.length).toBeGreaterThan(0);
    expect(daily.reduce((n: number, d: Json) => n + d.requests, 0)).toBe(stat.requests);
    expect(daily.reduce((n: number, d: Json) => n + d.quota, 0)).toBe(stat.quota);
    expect(daily.reduce((n: number, d: Json) => n + d.prompt_tokens, 0)).toBe(stat.prompt_tokens);
    for (const d of daily) expect(d.day % 86_400).toBe(0);
    expect(daily.some((d: Json) => d.model_name === "txtA-5")).toBe(true);
  });

  it("lists the caller's tasks with their webhook delivery", async () => {
    const submitted = await postJson(`${base}/v1/images/generations`, {
      model: "txtA-image-2",
      prompt: "a lighthouse",
      webhook: hookUrl,
    });
    expect(submitted.status, submitted.text).toBe(200);
    const id = submitted.json.data[0].task_id as string;
    const listed = await eventuallyAsync(
      () => getJson(`${base}/api/task/self`),
      (r) => r.json.data.items[0]?.webhook?.status === "delivered",
    );
    const task = listed.json.data.items[0];
    expect(task.id).toBe(id);
    expect(task.kind).toBe("image");
    expect(task.status).toBe("completed");
    expect(task.result.images[0].url.length).toBeGreaterThan(0);
    // The push goes to the webhook base + `/callback` (docs/api-reference.md, task webhook).
    expect(task.webhook).toMatchObject({
      url: `${hookUrl}/callback`,
      attempts: 1,
      last_status: 204,
    });
    expect(listed.json.data.total).toBe(1);
    // Tasks are the user's, so every key of alice's lists them.
    expect((await getJson(`${base}/api/task/self`, auth(plainKey))).json.data.total).toBe(1);
  });

  it("lists stored responses until they are deleted", async () => {
    const created = await postJson(`${base}/v1/responses`, { model: "txtA-5", input: "keep me" });
    expect(created.status, created.text).toBe(200);
    const id = created.json.data.id as string;
    const listed = await getJson(`${base}/api/response/self`);
    expect(listed.json.data.items.map((r: Json) => r.id)).toContain(id);
    expect(listed.json.data.items.find((r: Json) => r.id === id).model).toBe("txtA-5");
    const removed = await fetch(`${base}/v1/responses/${id}`, {
      method: "DELETE",
      headers: auth(),
    });
    expect(removed.status).toBe(200);
    const after = await getJson(`${base}/api/response/self`);
    expect(after.json.data.items.map((r: Json) => r.id)).not.toContain(id);
  });
});
