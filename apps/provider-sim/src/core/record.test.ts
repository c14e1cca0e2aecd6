import { describe, expect, it } from "vitest";
import { createProviderSimApp } from "../app.ts";
import { FIXED_NOW, post, useSim } from "../testing/http.ts";
import { keyFingerprint } from "./hash.ts";
import type { RecordedRequest } from "./record.ts";

const sim = useSim();

describe("the request log", () => {
  it("records method, path, query, headers with keys redacted, the parsed body and a key fingerprint", async () => {
    const body = { contents: [{ role: "user", parts: [{ text: "hi" }] }] };
    await post(
      `${sim().url}/v1beta/models/gemini-2.5-flash:generateContent?key=AIza-secret&alt=json`,
      body,
      { "x-trace": "t1" },
    );
    expect(sim().requests.at(-1)).toEqual({
      method: "POST",
      path: "/v1beta/models/gemini-2.5-flash:generateContent",
      query: { key: "[redacted]", alt: "json" },
      headers: expect.objectContaining({ "x-trace": "t1", "content-type": "application/json" }),
      body,
      keyFingerprint: keyFingerprint("AIza-secret"),
      receivedAt: FIXED_NOW,
    });

    await post(
      `${sim().url}/v1/messages`,
      { model: "m", max_tokens: 1, messages: [] },
      { "x-api-key": "sk-ant-secret", "anthropic-version": "2023-06-01" },
    );
    const anthropic = sim().requests.at(-1)!;
    expect(anthropic.headers["x-api-key"]).toBe("[redacted]");
    expect(anthropic.keyFingerprint).toBe(keyFingerprint("sk-ant-secret"));
    expect(JSON.stringify(sim().requests)).not.toContain("secret");
  });

  it("summarizes multipart forms", async () => {
    const form = new FormData();
    form.set("model", "whisper-1");
    form.set("file", new Blob([new Uint8Array(10)], { type: "audio/mpeg" }), "a.mp3");
    await fetch(`${sim().url}/v1/audio/transcriptions`, {
      method: "POST",
      headers: { authorization: "Bearer sk-x" },
      body: form,
    });
    expect(sim().requests.at(-1)!.body).toEqual({
      model: "whisper-1",
      file: { name: "a.mp3", type: "audio/mpeg", size: 10 },
    });
  });

  it("keeps at most `record` entries, and none with record: false", async () => {
    const requests: RecordedRequest[] = [];
    const app = createProviderSimApp({ requests, record: 2 });
    for (let i = 0; i < 3; i++)
      await app.fetch(
        new Request(`http://sim/v1/models?i=${i}`, { headers: { authorization: "Bearer k" } }),
      );
    expect(requests.map((r) => r.query.i)).toEqual(["1", "2"]);

    const none: RecordedRequest[] = [];
    await createProviderSimApp({ requests: none, record: false }).fetch(
      new Request("http://sim/v1/models"),
    );
    expect(none).toEqual([]);
  });
});
