import { describe, expect, it } from "vitest";
import { alnumId } from "../core/hash.ts";
import { post, readAll, sseJson, useSim } from "../testing/http.ts";

const sim = useSim();
const keyed = useSim({ keys: ["AIza-good"] });
const KEY = { "x-goog-api-key": "AIza-test" };
const url = (model: string, method: string, query = "") =>
  `${sim().url}/v1beta/models/${model}:${method}${query}`;

const request = {
  systemInstruction: { parts: [{ text: "Be brief." }] },
  contents: [{ role: "user", parts: [{ text: "Hello, Gemini" }] }],
};
const TOOLS = [
  {
    functionDeclarations: [
      {
        name: "get_weather",
        parameters: {
          type: "OBJECT",
          properties: { city: { type: "STRING" } },
          required: ["city"],
        },
      },
      { name: "list_alerts" },
    ],
  },
];
const ask = (text: string, extra: Record<string, unknown> = {}) => ({
  contents: [{ role: "user", parts: [{ text }] }],
  ...extra,
});

type Usage = {
  promptTokenCount: number;
  candidatesTokenCount: number;
  totalTokenCount: number;
  thoughtsTokenCount?: number;
};
type Candidate = {
  content: { parts: Record<string, unknown>[] };
  finishReason?: string;
  index: number;
};
type Chunk = { candidates: Candidate[]; usageMetadata: Usage };

describe("POST /v1beta/models/{model}:generateContent", () => {
  it("answers a whole response", async () => {
    const response = await post(url("gemini-2.5-flash", "generateContent"), request, KEY);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      candidates: [
        {
          content: { parts: [{ text: "echo: Hello, Gemini" }], role: "model" },
          finishReason: "STOP",
          index: 0,
        },
      ],
      // prompt: "Be brief." + "Hello, Gemini" = 22 chars; reply: 19 chars
      usageMetadata: {
        promptTokenCount: 6,
        candidatesTokenCount: 5,
        totalTokenCount: 11,
        promptTokensDetails: [{ modality: "TEXT", tokenCount: 6 }],
      },
      modelVersion: "gemini-2.5-flash",
      responseId: alnumId(JSON.stringify(request), 23),
    });
  });

  it("returns thought parts and a thoughtSignature when includeThoughts is set", async () => {
    const body = ask("why", { generationConfig: { thinkingConfig: { includeThoughts: true } } });
    const reply: Chunk = await (
      await post(url("gemini-2.5-pro", "generateContent"), body, KEY)
    ).json();
    expect(reply.candidates[0]!.content.parts).toEqual([
      { text: "thinking about: why", thought: true },
      { text: "echo: why", thoughtSignature: expect.any(String) },
    ]);
    expect(reply.usageMetadata).toMatchObject({
      candidatesTokenCount: 3,
      thoughtsTokenCount: 5,
      totalTokenCount: 1 + 3 + 5,
    });
  });

  it("calls functions (no id), with the signature on the first call when thinking", async () => {
    const reply: Chunk = await (
      await post(
        url("gemini-2.5-pro", "generateContent"),
        ask("[[tools:2]] [[think]]", { tools: TOOLS }),
        KEY,
      )
    ).json();
    const parts = reply.candidates[0]!.content.parts;
    expect(parts.slice(1)).toEqual([
      {
        functionCall: { name: "get_weather", args: { city: "sample city" } },
        thoughtSignature: expect.any(String),
      },
      { functionCall: { name: "list_alerts", args: {} } },
    ]);
    expect(reply.candidates[0]!.finishReason).toBe("STOP");
  });

  it("finishes with MAX_TOKENS at maxOutputTokens", async () => {
    const reply: Chunk = await (
      await post(
        url("gemini-2.5-flash", "generateContent"),
        ask("hello", { generationConfig: { maxOutputTokens: 1 } }),
        KEY,
      )
    ).json();
    expect(reply.candidates[0]).toMatchObject({
      content: { parts: [{ text: "echo" }] },
      finishReason: "MAX_TOKENS",
    });
  });

  it("adds an inline PNG for image models", async () => {
    const reply: Chunk = await (
      await post(url("gemini-3-pro-image-preview", "generateContent"), ask("a cat"), KEY)
    ).json();
    expect(reply.candidates[0]!.content.parts[1]).toEqual({
      inlineData: { mimeType: "image/png", data: expect.stringMatching(/^iVBOR/) },
    });
  });

  it("refuses fields Gemini does not know, such as a leftover cache_control", async () => {
    const body = {
      contents: [{ role: "user", parts: [{ text: "x", cache_control: { type: "ephemeral" } }] }],
    };
    const response = await post(url("gemini-2.5-flash", "generateContent"), body, KEY);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toEqual({
      code: 400,
      message: `Invalid JSON payload received. Unknown name "cache_control" at 'contents[0].parts[0]': Cannot find field.`,
      status: "INVALID_ARGUMENT",
    });
  });

  it("counts tokens of contents, or of a whole generateContentRequest", async () => {
    const count = async (body: unknown) =>
      (await post(url("gemini-2.5-flash", "countTokens"), body, KEY)).json();
    // "Hello, Gemini": 13 characters.
    expect(await count({ contents: request.contents })).toEqual({ totalTokens: 4 });
    // With "Be brief.": 22 characters.
    const wrapped = { generateContentRequest: { model: "models/gemini-2.5-flash", ...request } };
    expect(await count(wrapped)).toEqual({ totalTokens: 6 });
  });

  it("refuses a count with generation fields beside contents, as Gemini does", async () => {
    const response = await post(url("gemini-2.5-flash", "countTokens"), request, KEY);
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toContain(`Unknown name "systemInstruction"`);
  });
});

describe("POST /v1beta/models/{model}:streamGenerateContent", () => {
  it("frames ?alt=sse as `data: <json>\\r\\n\\r\\n`", async () => {
    const response = await post(
      url("gemini-2.5-flash", "streamGenerateContent", "?alt=sse"),
      request,
      KEY,
    );
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const text = await response.text();
    expect(text.endsWith("\r\n\r\n")).toBe(true);
    for (const block of text.split("\r\n\r\n").slice(0, -1))
      expect(block).toMatch(/^data: \{.*\}$/s);
    expect(sseJson(text)).toEqual([
      {
        candidates: [
          {
            content: { parts: [{ text: "echo: Hello, Gemini" }], role: "model" },
            finishReason: "STOP",
            index: 0,
          },
        ],
        usageMetadata: {
          promptTokenCount: 6,
          candidatesTokenCount: 5,
          totalTokenCount: 11,
          promptTokensDetails: [{ modality: "TEXT", tokenCount: 6 }],
        },
        modelVersion: "gemini-2.5-flash",
        responseId: alnumId(JSON.stringify(request), 23),
      },
    ]);
  });

  it("streams a JSON array progressively without alt=sse", async () => {
    const response = await post(
      url("gemini-2.5-flash", "streamGenerateContent"),
      ask("[[len:12]]"),
      { ...KEY, "x-sim-fault": "chunk-delay=15" },
    );
    expect(response.headers.get("content-type")).toBe("application/json; charset=UTF-8");
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const reads: string[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read())
      reads.push(decoder.decode(r.value));
    expect(reads.length).toBeGreaterThan(2);
    expect(reads[0]!.startsWith("[{")).toBe(true);
    const chunks = JSON.parse(reads.join("")) as Chunk[];
    expect(chunks.length).toBe(4);
    expect(
      chunks
        .map((c) => c.candidates[0]!.content.parts[0]!.text)
        .join("")
        .split(" "),
    ).toHaveLength(12);
  });

  it("streams thought parts, then text, then an empty part with the thoughtSignature; usage cumulative", async () => {
    const body = ask("one two three four five six seven", {
      generationConfig: { thinkingConfig: { includeThoughts: true } },
    });
    const chunks = sseJson(
      await (
        await post(url("gemini-2.5-pro", "streamGenerateContent", "?alt=sse"), body, KEY)
      ).text(),
    ) as Chunk[];
    const parts = chunks.map((c) => c.candidates[0]!.content.parts[0]!);
    const thoughts = parts.filter((p) => p.thought === true);
    expect(thoughts.map((p) => p.text).join("")).toBe(
      "thinking about: one two three four five six seven",
    );
    expect(
      parts
        .filter((p) => p.thought === undefined)
        .map((p) => p.text)
        .join(""),
    ).toBe("echo: one two three four five six seven");
    expect(parts.at(-1)).toEqual({ text: "", thoughtSignature: expect.any(String) });
    expect(chunks.at(-1)!.candidates[0]!.finishReason).toBe("STOP");
    expect(chunks.slice(0, -1).every((c) => c.candidates[0]!.finishReason === undefined)).toBe(
      true,
    );

    const totals = chunks.map((c) => c.usageMetadata.totalTokenCount);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    const whole: Chunk = await (
      await post(url("gemini-2.5-pro", "generateContent"), body, KEY)
    ).json();
    expect(chunks.at(-1)!.usageMetadata).toEqual(whole.usageMetadata);
    expect(parts.at(-1)!.thoughtSignature).toBe(
      whole.candidates[0]!.content.parts[1]!.thoughtSignature,
    );
  });

  it("counts hidden thinking from the first chunk when only a budget is set", async () => {
    const body = ask("hi", { generationConfig: { thinkingConfig: { thinkingBudget: 512 } } });
    const chunks = sseJson(
      await (
        await post(url("gemini-2.5-pro", "streamGenerateContent", "?alt=sse"), body, KEY)
      ).text(),
    ) as Chunk[];
    expect(chunks[0]!.usageMetadata.thoughtsTokenCount).toBe(5); // "thinking about: hi" = 18 chars
    expect(chunks.flatMap((c) => c.candidates[0]!.content.parts).some((p) => p.thought)).toBe(
      false,
    );
  });

  it("streams function calls whole, in one chunk", async () => {
    const chunks = sseJson(
      await (
        await post(
          url("gemini-2.5-flash", "streamGenerateContent", "?alt=sse"),
          ask("[[tools:2]]", { tools: TOOLS }),
          KEY,
        )
      ).text(),
    ) as Chunk[];
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.candidates[0]!.content.parts).toEqual([
      { functionCall: { name: "get_weather", args: { city: "sample city" } } },
      { functionCall: { name: "list_alerts", args: {} } },
    ]);
  });
});

describe("Gemini authentication", () => {
  it("takes the key from x-goog-api-key or ?key=", async () => {
    expect((await post(url("m", "generateContent", "?key=AIza-q"), request)).status).toBe(200);
    expect((await post(url("m", "generateContent"), request, KEY)).status).toBe(200);
  });

  it("answers a missing key with 403 PERMISSION_DENIED and a wrong one with 400 API_KEY_INVALID", async () => {
    const missing = await post(url("m", "generateContent"), request);
    expect(missing.status).toBe(403);
    expect((await missing.json()).error.status).toBe("PERMISSION_DENIED");
    const wrong = await post(
      `${keyed().url}/v1beta/models/m:generateContent?key=AIza-bad`,
      request,
    );
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error).toEqual({
      code: 400,
      message: "API key not valid. Please pass a valid API key.",
      status: "INVALID_ARGUMENT",
      details: [
        {
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason: "API_KEY_INVALID",
          domain: "googleapis.com",
          metadata: { service: "generativelanguage.googleapis.com" },
        },
      ],
    });
    expect(
      (await post(`${keyed().url}/v1beta/models/m:generateContent?key=AIza-good`, request)).status,
    ).toBe(200);
  });

  it("refuses an unknown method", async () => {
    const response = await post(url("m", "explode"), request, KEY);
    expect(response.status).toBe(404);
    expect((await readAll(response)).text).toContain("NOT_FOUND");
  });
});
