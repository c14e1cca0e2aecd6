import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UsageLogRow } from "../src/storage/store.ts";
import { CLAIMED_OUTPUT, liarChannel, startLyingUpstream } from "./lying-upstream.ts";
import { auth, eventuallyAsync, postJson, type Stack, startStack, tokenRow } from "./stack.ts";
import { stackDatabases } from "./storage/drivers.ts";

// Issue 15 through the gateway, on both databases: item 1 (a request nested 5,000 deep got a 200
// with a bare `{"error": "Maximum call stack size exceeded"}` and a usage row without a status
// that stopped every later charge write) and item 3 (an upstream claiming 1e12 output tokens for
// max_tokens 10 was charged in full).

const drivers = await stackDatabases();

const KEY = "sk-caps-limited";

describe.each(drivers)("billing caps through the gateway ($name)", ({ databaseUrl }) => {
  let stack: Stack;
  let liar: Awaited<ReturnType<typeof startLyingUpstream>>;

  beforeAll(async () => {
    liar = await startLyingUpstream();
    stack = await startStack({
      databaseUrl,
      users: [{ id: "caps", quota: 10_000_000 }],
      tokens: [{ key: KEY, user: "caps", quota: 5_000_000, name: "caps" }],
      extraChannels: () => [liarChannel(liar.url)],
    });
  });
  afterAll(async () => {
    await stack?.close();
    await liar?.close();
  });

  const url = (path: string) => `${stack.gateway.url}${path}`;
  const rows = async (): Promise<UsageLogRow[]> => {
    await stack.gateway.services.accounting!.flush();
    return (
      await stack.gateway.services.store.queryLogs({ userId: "caps" }, { offset: 0, limit: 1000 })
    ).items;
  };
  const rowOf = (requestId: string) =>
    eventuallyAsync(rows, (list) => list.some((r) => r.requestId === requestId)).then(
      (list) => list.find((r) => r.requestId === requestId) as UsageLogRow,
    );

  it("a body nested 5,000 deep is a 400 in the endpoint's envelope, and later calls are still charged", async () => {
    const deep = `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`;
    const body = `{"model":"txtA-5","max_tokens":10,"messages":[{"role":"user","content":"hi"}],"extra":${deep}}`;
    const refused = await postJson(url("/v1/chat/completions"), body, auth(KEY));
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(refused.json).toMatchObject({ error: { code: refused.status } });
    expect(refused.text).not.toContain("Maximum call stack");

    const ok = await postJson(
      url("/v1/chat/completions"),
      { model: "txtA-5", max_tokens: 10, messages: [{ role: "user", content: "after" }] },
      auth(KEY),
    );
    expect(ok.status).toBe(200);
    const okId = ok.headers.get("x-request-id") ?? "";
    const charged = await rowOf(okId);
    expect(charged.credits).toBeGreaterThan(0);
    const list = await rows();
    // Every row the gateway wrote has a status a client could have been sent.
    for (const r of list) expect(r.status).toBeGreaterThanOrEqual(200);
    const token = await tokenRow(stack, KEY);
    expect(token.used).toBe(list.reduce((sum, r) => sum + r.credits, 0));
    expect(await stack.gateway.services.store.listDeadLetters()).toEqual([]);
  });

  for (const stream of [false, true]) {
    it(`an upstream claiming 1e12 output tokens for max_tokens 10 is charged at most the hold (stream: ${stream})`, async () => {
      const before = (await tokenRow(stack, KEY)).used;
      const response = await fetch(url("/v1/chat/completions"), {
        method: "POST",
        headers: { "content-type": "application/json", ...auth(KEY) },
        body: JSON.stringify({
          model: "txtD-v4-flash",
          max_tokens: 10,
          stream,
          messages: [{ role: "user", content: "how long is your answer?" }],
        }),
        signal: AbortSignal.timeout(10_000),
      });
      expect(response.status).toBe(200);
      await response.text();
      const requestId = response.headers.get("x-request-id") ?? "";
      const row = await rowOf(requestId);
      // txtD-v4-flash output is 0.28 USD per 1M tokens: 1e12 tokens would be 140 million credits.
      expect(row.completionTokens).toBe(CLAIMED_OUTPUT);
      expect(row.uncappedCredits).toBeGreaterThanOrEqual(140_000_000);
      // The hold of 10 output tokens and a short prompt is a few hundred credits at most.
      expect(row.credits).toBeGreaterThan(0);
      expect(row.credits).toBeLessThan(1_000);
      const after = (await tokenRow(stack, KEY)).used;
      expect(after - before).toBe(row.credits);
      expect(
        stack
          .logs()
          .some(
            (l) =>
              l["msg"] === "usage reported above what the request could cost: charged its hold" &&
              l["requestId"] === requestId,
          ),
      ).toBe(true);
    });
  }
});
