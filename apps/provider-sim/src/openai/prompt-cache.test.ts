import { describe, expect, it } from "vitest";
import { FIXED_NOW, post, sseJson, useSim } from "../testing/http.ts";

// OpenAI automatic prompt caching: prompts of 1024+ tokens are cached by themselves; a later
// prompt reads the longest shared prefix in 128-token steps. Tokens are ceil(chars / 4).

let clock = FIXED_NOW;
const sim = useSim({ now: () => clock });
const AUTH = { authorization: "Bearer sk-cache" };
const chat = (body: unknown, headers: Record<string, string> = AUTH) =>
  post(`${sim().url}/v1/chat/completions`, body, headers);

const SYSTEM = "s".repeat(6000); // 1500 tokens

const ask = (question: string, extra: Record<string, unknown> = {}, model = "gpt-4.1") => ({
  model,
  messages: [
    { role: "system", content: SYSTEM },
    { role: "user", content: question },
  ],
  ...extra,
});

async function usageOf(body: unknown, headers?: Record<string, string>) {
  const response = await chat(body, headers);
  expect(response.status).toBe(200);
  return (await response.json()).usage;
}

describe("OpenAI automatic prompt caching", () => {
  it("caches a long prompt by itself and reads the shared prefix in 128-token steps", async () => {
    clock = FIXED_NOW;
    const first = await usageOf(ask("Question one"));
    expect(first.prompt_tokens).toBe(1503); // (6000 + 12) / 4
    expect(first.prompt_tokens_details.cached_tokens).toBe(0);
    // Shared: 6000 + "Question " = 6009 chars = 1502 tokens: the largest step below is
    // 1024 + 3 x 128 = 1408. prompt_tokens still counts every token, cached ones included.
    const second = await usageOf(ask("Question two"));
    expect(second.prompt_tokens).toBe(1503);
    expect(second.prompt_tokens_details.cached_tokens).toBe(1408);
  });

  it("caches nothing below 1024 tokens", async () => {
    const short = { model: "gpt-4.1", messages: [{ role: "user", content: "x".repeat(4000) }] };
    await usageOf(short);
    expect((await usageOf(short)).prompt_tokens_details.cached_tokens).toBe(0);
  });

  it("keeps caches apart by API key, model and prompt_cache_key", async () => {
    clock = FIXED_NOW + 10 * 60 * 60_000;
    const keyed = (q: string, key: string) => ask(q, { prompt_cache_key: key }, "gpt-apart");
    await usageOf(keyed("q", "k1"));
    expect((await usageOf(keyed("q", "k2"))).prompt_tokens_details.cached_tokens).toBe(0);
    const otherKey = { authorization: "Bearer sk-other" };
    expect((await usageOf(keyed("q", "k1"), otherKey)).prompt_tokens_details.cached_tokens).toBe(0);
    expect(
      (await usageOf(ask("q", { prompt_cache_key: "k1" }, "gpt-other"))).prompt_tokens_details
        .cached_tokens,
    ).toBe(0);
    expect((await usageOf(keyed("q", "k1"))).prompt_tokens_details.cached_tokens).toBe(1408);
  });

  it("forgets a prefix after 5 minutes unused, or 24 hours with prompt_cache_retention", async () => {
    clock = FIXED_NOW + 20 * 60 * 60_000;
    await usageOf(ask("q", {}, "gpt-ttl"));
    await usageOf(ask("q", { prompt_cache_retention: "24h" }, "gpt-ttl-24h"));
    clock += 5 * 60_000 + 1;
    expect((await usageOf(ask("q", {}, "gpt-ttl"))).prompt_tokens_details.cached_tokens).toBe(0);
    clock += 60 * 60_000;
    const kept = await usageOf(ask("q", { prompt_cache_retention: "24h" }, "gpt-ttl-24h"));
    expect(kept.prompt_tokens_details.cached_tokens).toBe(1408);
  });

  it("a changed earlier message or tool list misses", async () => {
    clock = FIXED_NOW + 30 * 60 * 60_000;
    await usageOf(ask("q", {}, "gpt-change"));
    const changed = {
      model: "gpt-change",
      messages: [
        { role: "system", content: `x${SYSTEM.slice(1)}` },
        { role: "user", content: "q" },
      ],
    };
    expect((await usageOf(changed)).prompt_tokens_details.cached_tokens).toBe(0);
    const tools = [{ type: "function", function: { name: "f" } }];
    expect(
      (await usageOf(ask("q", { tools }, "gpt-change"))).prompt_tokens_details.cached_tokens,
    ).toBe(0);
  });

  it("an image counts by its content: the same image hits, another one misses", async () => {
    clock = FIXED_NOW + 50 * 60 * 60_000;
    const withImage = (url: string) => ({
      model: "gpt-image-prefix",
      messages: [
        {
          role: "user",
          content: [
            { type: "image_url", image_url: { url } },
            { type: "text", text: SYSTEM },
          ],
        },
        { role: "user", content: "q" },
      ],
    });
    const first = await usageOf(withImage("https://example.com/a.png"));
    expect(first.prompt_tokens).toBe(256 + 1501); // the image, then (6000 + 1) / 4
    const same = await usageOf(withImage("https://example.com/a.png"));
    // 256 + 1500 prefix tokens shared: the largest step below is 1024 + 5 x 128 = 1664.
    expect(same.prompt_tokens_details.cached_tokens).toBe(1664);
    const other = await usageOf(withImage("https://example.com/b.png"));
    expect(other.prompt_tokens_details.cached_tokens).toBe(0);
  });

  it("reports cached_tokens in the usage chunk of a stream", async () => {
    clock = FIXED_NOW + 40 * 60 * 60_000;
    await usageOf(ask("q", {}, "gpt-stream"));
    const body = ask("q", { stream: true, stream_options: { include_usage: true } }, "gpt-stream");
    const chunks = sseJson(await (await chat(body)).text());
    const usage = chunks.at(-1)!.usage as { prompt_tokens_details: { cached_tokens: number } };
    expect(usage.prompt_tokens_details.cached_tokens).toBe(1408);
  });
});
