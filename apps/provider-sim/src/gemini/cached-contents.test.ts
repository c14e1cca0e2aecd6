import { describe, expect, it } from "vitest";
import { FIXED_NOW, post, useSim } from "../testing/http.ts";

let clock = FIXED_NOW;
const sim = useSim({ now: () => clock });
const KEY = { "x-goog-api-key": "AIza-test" };
const get = (url: string, init: RequestInit = {}) => fetch(url, { headers: KEY, ...init });

describe("cachedContents", () => {
  const cache = {
    model: "models/gemini-2.5-flash",
    systemInstruction: { parts: [{ text: "You are a librarian." }] }, // 20 chars
    contents: [{ role: "user", parts: [{ text: "A long shared document." }] }], // 23 chars
    ttl: "300s",
  };

  it("creates, reads, lists, extends and deletes a cache", async () => {
    clock = FIXED_NOW;
    const created = await (await post(`${sim().url}/v1beta/cachedContents`, cache, KEY)).json();
    expect(created).toEqual({
      name: expect.stringMatching(/^cachedContents\/[0-9a-f]{16}$/),
      model: "models/gemini-2.5-flash",
      createTime: "2025-01-01T00:00:00.000Z",
      updateTime: "2025-01-01T00:00:00.000Z",
      expireTime: "2025-01-01T00:05:00.000Z",
      usageMetadata: { totalTokenCount: 11 }, // ceil(43 / 4)
    });
    const url = `${sim().url}/v1beta/${created.name}`;
    expect(await (await get(url)).json()).toEqual(created);
    const list = await (await get(`${sim().url}/v1beta/cachedContents`)).json();
    expect(list.cachedContents).toContainEqual(created);

    const patched = await (
      await get(url, { method: "PATCH", body: JSON.stringify({ ttl: "600s" }) })
    ).json();
    expect(patched.expireTime).toBe("2025-01-01T00:10:00.000Z");

    expect(await (await get(url, { method: "DELETE" })).json()).toEqual({});
    const gone = await get(url);
    expect(gone.status).toBe(403);
    expect((await gone.json()).error.status).toBe("PERMISSION_DENIED");
  });

  it("counts the cache in promptTokenCount and cachedContentTokenCount, until it expires", async () => {
    clock = FIXED_NOW;
    const { name } = await (await post(`${sim().url}/v1beta/cachedContents`, cache, KEY)).json();
    const body = {
      cachedContent: name,
      contents: [{ role: "user", parts: [{ text: "Summarize" }] }],
    }; // 9 chars
    const reply = await (
      await post(`${sim().url}/v1beta/models/gemini-2.5-flash:generateContent`, body, KEY)
    ).json();
    expect(reply.usageMetadata).toEqual({
      promptTokenCount: 3 + 11,
      candidatesTokenCount: 4,
      totalTokenCount: 3 + 11 + 4,
      cachedContentTokenCount: 11,
      cacheTokensDetails: [{ modality: "TEXT", tokenCount: 11 }],
      promptTokensDetails: [{ modality: "TEXT", tokenCount: 14 }],
    });
    clock = FIXED_NOW + 301_000;
    const expired = await post(
      `${sim().url}/v1beta/models/gemini-2.5-flash:generateContent`,
      body,
      KEY,
    );
    expect(expired.status).toBe(403);
    clock = FIXED_NOW;
  });

  it("the cache-create fault fails only the create, selected by the cached conversation", async () => {
    const doomed = {
      ...cache,
      contents: [{ role: "user", parts: [{ text: "A document. [[fault:cache-create=503]]" }] }],
    };
    const failed = await post(`${sim().url}/v1beta/cachedContents`, doomed, KEY);
    expect(failed.status).toBe(503);
    expect((await failed.json()).error.status).toBe("UNAVAILABLE");
    expect((await post(`${sim().url}/v1beta/cachedContents`, cache, KEY)).status).toBe(200);
    // generateContent ignores it, even when its own last text carries the directive.
    const generate = await post(
      `${sim().url}/v1beta/models/gemini-2.5-flash:generateContent`,
      { contents: doomed.contents },
      KEY,
    );
    expect(generate.status).toBe(200);
  });

  it("requires a model", async () => {
    const { model: _, ...rest } = cache;
    expect((await post(`${sim().url}/v1beta/cachedContents`, rest, KEY)).status).toBe(400);
  });
});
