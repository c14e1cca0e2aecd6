import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, eventuallyAsync, postJson, type Stack, startStack } from "./stack.ts";
import type { Json } from "./wire.ts";

// Accounts through the management API and the balance routes: what a limited key may grant,
// unlimited users' balances, missing records, and deleted config tokens across a restart.

const LIMITED = "sk-acct-limited"; // 1000 credits of its own
const BOSS = "sk-acct-boss"; // unlimited, same user
const RICH = "sk-acct-rich"; // an unlimited token of an unlimited user
const GHOST = "sk-acct-ghost"; // its user record is removed below
const ONE_MODEL = "sk-acct-one-model"; // txtA-5 only, 1,317 credits
const RATED = "sk-acct-rated"; // 6 requests a minute (its own management calls count too)
const EXPIRING = "sk-acct-expiring"; // expires in a year
const EXPIRES_AT = new Date(Date.now() + 365 * 86_400_000);
EXPIRES_AT.setUTCMilliseconds(0);

let dir: string;
let stack: Stack;
const url = (path: string) => `${stack.gateway.url}${path}`;

async function send(method: string, path: string, body: unknown, key: string) {
  const res = await fetch(url(path), {
    method,
    headers: { ...auth(key), "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Json };
}

async function tokenByName(name: string, key = BOSS): Promise<Json> {
  const list = await (await fetch(url("/api/token?page_size=100"), { headers: auth(key) })).json();
  return list.data.items.find((t: Json) => t.name === name);
}

const config = (databaseUrl: string) => ({
  database_url: databaseUrl,
  users: [
    { id: "alice", quota: 1_000_000_000 },
    { id: "whale", quota: 0, unlimited: true },
    { id: "ghost", quota: 100 },
  ],
  tokens: [
    { key: LIMITED, user: "alice", quota: 1_000, name: "limited" },
    { key: BOSS, user: "alice", unlimited: true, name: "boss" },
    { key: RICH, user: "whale", unlimited: true, name: "rich" },
    { key: GHOST, user: "ghost", quota: 10, name: "ghost" },
    { key: ONE_MODEL, user: "alice", quota: 1_317, name: "one-model", models: ["txtA-5"] },
    { key: RATED, user: "alice", unlimited: true, name: "rated", rate_limit: { rpm: 6 } },
    {
      key: EXPIRING,
      user: "alice",
      unlimited: true,
      name: "expiring",
      expires_at: EXPIRES_AT.toISOString(),
    },
  ],
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "interlingua-accounts-"));
  // Leases stay until a flush, so the lease test below finds one whatever the machine's pace.
  stack = await startStack(config(`sqlite:${join(dir, "gateway.db")}`), {
    leases: { idleMs: 10 * 60_000 },
  });
});
afterAll(async () => {
  await stack?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("what a limited key may grant (403 in the management envelope otherwise)", () => {
  const refused = (json: Json, pattern: RegExp) =>
    expect(json).toEqual({ success: false, message: expect.stringMatching(pattern), data: null });

  it("cannot create an unlimited token, nor one with more than it has left", async () => {
    const unlimited = await send(
      "POST",
      "/api/token",
      { name: "u", unlimited_quota: true },
      LIMITED,
    );
    expect(unlimited.status).toBe(403);
    refused(unlimited.json, /cannot create an unlimited token/);
    const big = await send("POST", "/api/token", { name: "big", remain_quota: 1_001 }, LIMITED);
    expect(big.status).toBe(403);
    refused(big.json, /more quota than it has left \(1000 credits\)/);
    const fits = await send("POST", "/api/token", { name: "child", remain_quota: 400 }, LIMITED);
    expect(fits.status).toBe(200);
    expect(fits.json.data).toMatchObject({ name: "child", remain_quota: 400 });
    expect(await tokenByName("big")).toBeUndefined();
    // What it gave is drawn from its own remaining.
    expect((await tokenByName("limited")).remain_quota).toBe(600);
  });

  it("cannot raise its own quota or make itself unlimited, by either PUT form", async () => {
    const own = await tokenByName("limited");
    for (const [path, body] of [
      ["/api/token", { id: own.id, remain_quota: 1_001 }],
      [`/api/token/${own.id}`, { remain_quota: 5_000_000 }],
      [`/api/token/${own.id}`, { unlimited_quota: true }],
    ] as const) {
      const res = await send("PUT", path, body, LIMITED);
      expect(res.status, JSON.stringify(body)).toBe(403);
      refused(res.json, /limited API key/);
    }
    const balance = await (await fetch(url("/v1/balance"), { headers: auth(LIMITED) })).json();
    expect(balance).toMatchObject({ remain_credits: 600, unlimited_quota: false });
  });

  it("pays for raising another token out of its own remaining, and lowers any token, itself included", async () => {
    const child = await tokenByName("child");
    const tooMuch = await send("PUT", `/api/token/${child.id}`, { remain_quota: 1_001 }, LIMITED);
    expect(tooMuch.status).toBe(403);
    refused(tooMuch.json, /more quota than it has left \(600 credits\)/);
    expect(
      (await send("PUT", `/api/token/${child.id}`, { unlimited_quota: true }, LIMITED)).status,
    ).toBe(403);
    const lowered = await send("PUT", `/api/token/${child.id}`, { remain_quota: 10 }, LIMITED);
    expect(lowered.json).toMatchObject({ success: true, data: { remain_quota: 10 } });
    // Lowering gives the caller nothing back (the token need not be its child).
    expect((await tokenByName("limited")).remain_quota).toBe(600);
    const raised = await send("PUT", `/api/token/${child.id}`, { remain_quota: 410 }, LIMITED);
    expect(raised.json).toMatchObject({ success: true, data: { remain_quota: 410 } });
    expect((await tokenByName("limited")).remain_quota).toBe(200);
    const own = await tokenByName("limited");
    const self = await send("PUT", "/api/token", { id: own.id, remain_quota: 100 }, LIMITED);
    expect(self.json).toMatchObject({ success: true, data: { remain_quota: 100 } });
    // Its own remaining is now 100: raising the child by 101 is refused, by 100 allowed.
    expect(
      (await send("PUT", `/api/token/${child.id}`, { remain_quota: 511 }, LIMITED)).status,
    ).toBe(403);
    expect(
      (await send("PUT", `/api/token/${child.id}`, { remain_quota: 510 }, LIMITED)).status,
    ).toBe(200);
    expect((await tokenByName("limited")).remain_quota).toBe(0);
  });

  it("an unlimited key manages all of its user's tokens freely", async () => {
    const made = await send("POST", "/api/token", { name: "free", unlimited_quota: true }, BOSS);
    expect(made.json).toMatchObject({
      success: true,
      data: { unlimited_quota: true, remain_quota: -1 },
    });
    const own = await tokenByName("limited");
    const up = await send(
      "PUT",
      `/api/token/${own.id}`,
      { remain_quota: 5_000_000, unlimited_quota: true },
      BOSS,
    );
    expect(up.json).toMatchObject({ success: true, data: { unlimited_quota: true } });
    // Now unlimited itself, the formerly limited key may grant freely too.
    const granted = await send(
      "POST",
      "/api/token",
      { name: "later", unlimited_quota: true },
      LIMITED,
    );
    expect(granted.status).toBe(200);
  });
});

describe("a key never grants, to a child or to itself, more than it has (issue 15, item 5)", () => {
  const refusedWith = (res: { status: number; json: Json }, pattern: RegExp) => {
    expect(res.status).toBe(403);
    expect(res.json).toEqual({
      success: false,
      message: expect.stringMatching(pattern),
      data: null,
    });
  };
  const chat = (key: string, model: string) =>
    postJson(
      url("/v1/chat/completions"),
      { model, messages: [{ role: "user", content: "hi" }], max_tokens: 5 },
      auth(key),
    );

  it("a key limited to one model makes children limited to it: no model list inherits its own", async () => {
    const wider = await send(
      "POST",
      "/api/token",
      { name: "wider", models: ["txtA-5", "txtB-sonnet-4-6"] },
      ONE_MODEL,
    );
    refusedWith(wider, /models it may not use itself: txtB-sonnet-4-6/);
    for (const [name, models] of [
      ["no-list", undefined],
      ["null-list", null],
    ] as const) {
      const made = await send("POST", "/api/token", { name, models }, ONE_MODEL);
      expect(made.status).toBe(200);
      expect(made.json.data.models).toEqual(["txtA-5"]);
      const key = made.json.data.key as string;
      expect((await chat(key, "txtB-sonnet-4-6")).status).toBe(403);
    }
  });

  it("a key limited to one model cannot widen itself: PUT {models: null} or a longer list", async () => {
    const own = await tokenByName("one-model");
    refusedWith(
      await send("PUT", `/api/token/${own.id}`, { models: null }, ONE_MODEL),
      /cannot grant every model/,
    );
    refusedWith(
      await send(
        "PUT",
        "/api/token",
        { id: own.id, models: ["txtA-5", "txtC-2.5-pro"] },
        ONE_MODEL,
      ),
      /txtC-2.5-pro/,
    );
    expect((await tokenByName("one-model")).models).toEqual(["txtA-5"]);
    expect((await chat(ONE_MODEL, "txtC-2.5-pro")).status).toBe(403);
  });

  it("a config token's rate limit shows in its view, as an API token's does", async () => {
    // Read with another key of the owner: RATED's own six calls a minute are for the next test.
    expect((await tokenByName("rated")).rate_limit).toEqual({ rpm: 6 });
    const one = await send(
      "GET",
      `/api/token/${(await tokenByName("rated")).id}`,
      undefined,
      RATED,
    );
    expect(one.json.data.rate_limit).toEqual({ rpm: 6 });
  });

  it("a rate-limited key's child is rate limited, at most as high as its maker", async () => {
    refusedWith(
      await send("POST", "/api/token", { name: "fast", rate_limit: { rpm: 100 } }, RATED),
      /rpm above its own \(6\)/,
    );
    const inherits = await send("POST", "/api/token", { name: "rated-heir" }, RATED);
    expect(inherits.status).toBe(200);
    expect(inherits.json.data.rate_limit).toEqual({ rpm: 6 });
    const made = await send(
      "POST",
      "/api/token",
      { name: "rated-child", rate_limit: { rpm: 2 } },
      RATED,
    );
    expect(made.json.data.rate_limit).toEqual({ rpm: 2 });
    const key = made.json.data.key as string;
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await fetch(url("/v1/models"), { headers: auth(key) })).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    // Nor can it lift its child's (or its own) limit afterwards.
    refusedWith(
      await send("PUT", `/api/token/${made.json.data.id}`, { rate_limit: { rpm: 50 } }, RATED),
      /rpm above its own/,
    );
  });

  it("a token with 1,317 credits left cannot make five children of 1,317: they draw on it", async () => {
    const own = await tokenByName("one-model");
    expect(own.remain_quota).toBe(1_317);
    const made = await Promise.all(
      [1, 2, 3, 4, 5].map((i) =>
        send("POST", "/api/token", { name: `heir-${i}`, remain_quota: 1_317 }, ONE_MODEL),
      ),
    );
    expect(made.map((r) => r.status).sort()).toEqual([200, 403, 403, 403, 403]);
    expect((await tokenByName("one-model")).remain_quota).toBe(0);
    const heirs = (await Promise.all([1, 2, 3, 4, 5].map((i) => tokenByName(`heir-${i}`)))).filter(
      (t) => t !== undefined,
    );
    expect(heirs.map((t: Json) => t.remain_quota)).toEqual([1_317]);
    // The heir, limited too, cannot give its parent's credits a second life either.
    const heirKey = made.find((r) => r.status === 200)!.json.data.key as string;
    refusedWith(
      await send("POST", "/api/token", { name: "grandchild", remain_quota: 1_318 }, heirKey),
      /more quota than it has left \(1317 credits\)/,
    );
  });

  it("an expiring key's children expire no later, and it cannot extend itself", async () => {
    const expiry = Math.floor(EXPIRES_AT.getTime() / 1000);
    const made = await send("POST", "/api/token", { name: "mortal" }, EXPIRING);
    expect(made.json.data.expired_time).toBe(expiry);
    refusedWith(
      await send("POST", "/api/token", { name: "immortal", expired_time: expiry + 1 }, EXPIRING),
      /past its own expiry/,
    );
    const own = await tokenByName("expiring");
    refusedWith(
      await send("PUT", `/api/token/${own.id}`, { expired_time: -1 }, EXPIRING),
      /past its own expiry/,
    );
    const sooner = await send(
      "PUT",
      `/api/token/${own.id}`,
      { expired_time: expiry - 60 },
      EXPIRING,
    );
    expect(sooner.json).toMatchObject({ success: true, data: { expired_time: expiry - 60 } });
  });
});

describe("a token's remaining quota set while this instance holds a lease on it", () => {
  it("is exactly the remaining seen afterwards: the free lease goes back first", async () => {
    const made = await send("POST", "/api/token", { name: "leaser", remain_quota: 100_000 }, BOSS);
    const key = made.json.data.key as string;
    const id = made.json.data.id as number;
    const call = await postJson(
      url("/v1/chat/completions"),
      { model: "txtA-5", messages: [{ role: "user", content: "lease" }], max_tokens: 20 },
      auth(key),
    );
    expect(call.status).toBe(200);
    const services = stack.gateway.services;
    // The call's charge is written (bounded wait); the rest of the lease stays with this instance.
    await eventuallyAsync(
      async () => {
        await services.accounting!.writePending();
        return (await services.store.getToken(id))!.used;
      },
      (used) => used > 0,
    );
    const leased = async () =>
      (await services.store.listLeases())
        .filter((l) => l.kind === "token" && l.subject === String(id))
        .reduce((sum, l) => sum + l.amount, 0);
    expect(await leased()).toBeGreaterThan(0);
    const set = await send("PUT", `/api/token/${id}`, { remain_quota: 500 }, BOSS);
    expect(set.json).toMatchObject({ success: true, data: { remain_quota: 500 } });
    expect(await leased()).toBe(0);
    const balance = async () =>
      (await (await fetch(url("/v1/balance"), { headers: auth(key) })).json()).remain_credits;
    expect(await balance()).toBe(500);
    await services.accounting!.flush();
    expect(await balance()).toBe(500);
  });
});

describe("balances of unlimited users and missing records", () => {
  it("an unlimited user answers -1 remaining on the user balance and /api/user/self, even after spending", async () => {
    const call = await postJson(
      url("/v1/chat/completions"),
      { model: "txtA-5", messages: [{ role: "user", content: "spend" }], max_tokens: 20 },
      auth(RICH),
    );
    expect(call.status).toBe(200);
    await stack.gateway.services.accounting!.flush();
    for (const path of ["/v1/user/balance", "/user/balance"]) {
      const body = await (await fetch(url(path), { headers: auth(RICH) })).json();
      expect(body).toEqual({
        success: true,
        remain_balance: -1,
        remain_credits: -1,
        used_balance: expect.any(Number),
        used_credits: expect.any(Number),
      });
      expect(body.used_credits).toBeGreaterThan(0);
    }
    const self = await (await fetch(url("/api/user/self"), { headers: auth(RICH) })).json();
    expect(self.data).toMatchObject({
      unlimited_quota: true,
      remain_quota: -1,
      remain_balance: -1,
    });
  });

  it("a missing user record: {success: false, message} on the user balance, 404 on /api/user/self", async () => {
    // Read once, so this instance trusts its cached copy of the key for a while.
    expect((await fetch(url("/v1/user/balance"), { headers: auth(GHOST) })).status).toBe(200);
    // The user row disappears behind the gateway's back (another connection, no cascade).
    const db = new DatabaseSync(join(dir, "gateway.db"));
    db.exec("PRAGMA foreign_keys = OFF");
    db.prepare("DELETE FROM users WHERE id = ?").run("ghost");
    db.close();
    for (const path of ["/v1/user/balance", "/user/balance"]) {
      const res = await fetch(url(path), { headers: auth(GHOST) });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toEqual({ success: false, message: expect.any(String) });
      expect(body.message).toMatch(/^Failed to get user quota/);
    }
    const self = await fetch(url("/api/user/self"), { headers: auth(GHOST) });
    expect(self.status).toBe(404);
    expect(await self.json()).toEqual({
      success: false,
      message: "user record does not exist",
      data: null,
    });
  });
});

describe("a config token deleted through the API", () => {
  it("stays deleted across a restart, and what it spent stays spent", async () => {
    const file = `sqlite:${join(dir, "restart.db")}`;
    const first = await startStack(config(file));
    const at = (s: Stack, path: string) => `${s.gateway.url}${path}`;
    const spend = await postJson(
      at(first, "/v1/chat/completions"),
      { model: "txtA-5", messages: [{ role: "user", content: "spend" }], max_tokens: 20 },
      auth(LIMITED),
    );
    expect(spend.status).toBe(200);
    await first.gateway.services.accounting!.flush();
    const list = await (await fetch(at(first, "/api/token"), { headers: auth(BOSS) })).json();
    const row = list.data.items.find((t: Json) => t.name === "limited");
    expect(row.used_quota).toBeGreaterThan(0);
    const userUsed = (await first.gateway.services.store.getUser("alice"))!.used;
    const deleted = await fetch(at(first, `/api/token/${row.id}`), {
      method: "DELETE",
      headers: auth(BOSS),
    });
    expect(await deleted.json()).toEqual({ success: true, message: "", data: null });
    await first.close();

    // The same config again: the key is not re-created (with nothing spent), it stays refused.
    const second = await startStack(config(file));
    try {
      const refused = await postJson(
        at(second, "/v1/chat/completions"),
        { model: "txtA-5", messages: [{ role: "user", content: "again" }], max_tokens: 20 },
        auth(LIMITED),
      );
      expect(refused.status).toBe(401);
      expect((await fetch(at(second, "/v1/balance"), { headers: auth(LIMITED) })).status).toBe(401);
      const after = await (await fetch(at(second, "/api/token"), { headers: auth(BOSS) })).json();
      expect(after.data.items.map((t: Json) => t.name)).not.toContain("limited");
      expect((await second.gateway.services.store.getUser("alice"))!.used).toBe(userUsed);
      expect(second.logs().some((l) => String(l["msg"]).includes("deleted through the API"))).toBe(
        true,
      );
    } finally {
      await second.close();
    }
  });
});
