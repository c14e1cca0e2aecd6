import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UsageLogRow } from "../src/storage/store.ts";
import { liarChannel, startLyingUpstream } from "./lying-upstream.ts";
import { auth, eventually, eventuallyAsync, type Stack, startStack, tokenRow } from "./stack.ts";
import { stackDatabases } from "./storage/drivers.ts";

// The money invariants of issue 15's standing suite, on both databases: concurrent calls on every
// format, streamed and not, mixed with clients that leave mid-stream and with upstream faults
// (provider-sim: 5xx, reset mid-stream, in-stream error, malformed JSON and SSE, slow chunks) and
// an upstream reporting absurd usage. Whatever happens to each call:
//   sum of charges (`used` of each token, and of the user) == sum of the usage rows' credits,
//   every call leaves exactly one usage row, nothing stays reserved or leased once flushed,
//   and no balance ever goes below zero (every charge is at most its call's hold).

const drivers = await stackDatabases();

const TOKENS = [
  { key: "sk-inv-small", name: "small", quota: 6_000 },
  { key: "sk-inv-mid", name: "mid", quota: 40_000 },
  { key: "sk-inv-wide", name: "wide", unlimited: true },
] as const;
/** The user's quota: below what every call could hold together, so some are refused. */
const USER_QUOTA = 120_000;
const CALLS = 150;

interface Call {
  readonly path: string;
  readonly body: unknown;
  /** Leave after the first bytes of the reply. */
  readonly leave: boolean;
}

// One call's shape from its index: formats x stream x fault x leaving, spread deterministically.
const FAULTS = [
  "",
  "",
  "[[fault:status=500]]",
  "[[fault:reset-after=2]]",
  "[[fault:error-after=1]]",
  "[[fault:malformed=1]]",
  "[[fault:chunk-delay=15]]",
  "[[fault:latency=30]]",
];

function callOf(i: number): Call {
  const stream = i % 3 !== 0;
  const leave = stream && i % 5 === 1;
  // A client that leaves does so mid-stream: its upstream drips.
  const fault = leave ? "[[fault:chunk-delay=20]]" : (FAULTS[i % FAULTS.length] as string);
  const text = `${fault} [[len:300]] call ${i}`;
  switch (i % 4) {
    case 0:
      return {
        path: "/v1/chat/completions",
        body: {
          model: "txtA-5",
          max_tokens: 60,
          stream,
          messages: [{ role: "user", content: text }],
        },
        leave,
      };
    case 1:
      return {
        path: "/v1/messages",
        body: {
          model: "txtB-sonnet-4-6",
          max_tokens: 60,
          stream,
          messages: [{ role: "user", content: text }],
        },
        leave,
      };
    case 2:
      return {
        path: `/v1beta/models/txtC-3.6-flash:${stream ? "streamGenerateContent?alt=sse" : "generateContent"}`,
        body: {
          contents: [{ role: "user", parts: [{ text }] }],
          generationConfig: { maxOutputTokens: 60 },
        },
        leave,
      };
    default:
      // The lying upstream: 1e12 output tokens claimed for max_tokens 10.
      return {
        path: "/v1/chat/completions",
        body: {
          model: "txtD-v4-flash",
          max_tokens: 10,
          stream,
          messages: [{ role: "user", content: `call ${i}` }],
        },
        leave,
      };
  }
}

describe.each(drivers)("money invariants ($name)", ({ databaseUrl }) => {
  let stack: Stack;
  let liar: Awaited<ReturnType<typeof startLyingUpstream>>;

  beforeAll(async () => {
    liar = await startLyingUpstream();
    stack = await startStack({
      databaseUrl,
      users: [{ id: "inv", quota: USER_QUOTA }],
      tokens: TOKENS.map((t) =>
        "unlimited" in t
          ? { key: t.key, user: "inv", unlimited: true, name: t.name }
          : { key: t.key, user: "inv", quota: t.quota, name: t.name },
      ),
      extraChannels: () => [liarChannel(liar.url)],
    });
  });
  afterAll(async () => {
    await stack?.close();
    await liar?.close();
  });

  async function send(i: number): Promise<number> {
    const call = callOf(i);
    const token = TOKENS[i % TOKENS.length] as (typeof TOKENS)[number];
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 15_000);
    try {
      const response = await fetch(`${stack.gateway.url}${call.path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...auth(token.key) },
        body: JSON.stringify(call.body),
        signal: controller.signal,
      });
      if (call.leave && response.body !== null) {
        const reader = response.body.getReader();
        await reader.read();
        controller.abort();
        await reader.cancel().catch(() => undefined);
      } else {
        await response.arrayBuffer();
      }
      return response.status;
    } catch {
      return 0;
    } finally {
      clearTimeout(timer);
    }
  }

  it("charges == usage rows == used on tokens and user; nothing left reserved; no balance below zero", async () => {
    const services = stack.gateway.services;
    const store = services.store;
    const ids = await Promise.all(TOKENS.map((t) => tokenRow(stack, t.key).then((r) => r.id)));
    let lowest = Number.POSITIVE_INFINITY;
    let sampling = true;
    // Balances as the database has them, watched while the calls run.
    const watch = (async () => {
      while (sampling) {
        const user = await store.getUser("inv");
        if (user !== undefined) lowest = Math.min(lowest, user.quota - user.used);
        for (const [i, id] of ids.entries()) {
          const spec = TOKENS[i] as (typeof TOKENS)[number];
          const token = await store.getToken(id);
          if (token !== undefined && !("unlimited" in spec)) {
            lowest = Math.min(lowest, token.quota - token.used);
          }
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    const statuses = await Promise.all(Array.from({ length: CALLS }, (_, i) => send(i)));
    sampling = false;
    await watch;

    // Some clients did leave mid-stream (the request log says so, once the gateway has drained
    // their upstream for up to half a second after they left).
    await eventually(() => stack.logs().some((l) => l["clientDisconnected"] === true));
    // Every outcome is one a client can be given: a reply, a refusal, an upstream error, or a
    // client that left (0). Never a 500 from the gateway itself.
    for (const status of statuses) expect([0, 200, 402, 502, 503, 504]).toContain(status);
    expect(statuses.filter((s) => s === 402).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(CALLS / 4);

    // Calls whose client left settle once their upstream is read or cancelled.
    await eventuallyAsync(
      async () => services.accounting!.openHolds,
      (open) => open === 0,
      15_000,
    );
    const rows: UsageLogRow[] = await eventuallyAsync(
      async () => {
        await services.accounting!.flush();
        return (await store.queryLogs({ userId: "inv" }, { offset: 0, limit: 1_000 })).items;
      },
      (list) => list.length === CALLS,
      10_000,
    );
    const credits = (list: UsageLogRow[]) => list.reduce((sum, r) => sum + r.credits, 0);
    let usedByTokens = 0;
    for (const [i, spec] of TOKENS.entries()) {
      const token = (await store.getToken(ids[i] as number))!;
      const own = rows.filter((r) => r.tokenName === spec.name);
      expect(token.used, spec.name).toBe(credits(own));
      expect(token.reserved, spec.name).toBe(0);
      if (!("unlimited" in spec)) expect(token.quota - token.used).toBeGreaterThanOrEqual(0);
      usedByTokens += token.used;
    }
    const user = (await store.getUser("inv"))!;
    expect(user.used).toBe(credits(rows));
    expect(user.used).toBe(usedByTokens);
    expect(user.reserved).toBe(0);
    expect(user.quota - user.used).toBeGreaterThanOrEqual(0);
    expect(lowest).toBeGreaterThanOrEqual(0);
    expect(await store.listLeases()).toEqual([]);
    expect(await store.listDeadLetters()).toEqual([]);
    // The lying upstream's calls that were delivered are charged their hold and flagged.
    const lied = rows.filter((r) => r.model === "txtD-v4-flash" && r.status === 200);
    expect(lied.length).toBeGreaterThan(0);
    for (const r of lied.filter((x) => !x.estimated)) {
      expect(r.uncappedCredits).toBeGreaterThan(r.credits);
    }
  }, 30_000);
});
