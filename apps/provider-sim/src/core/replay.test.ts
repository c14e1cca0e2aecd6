import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_FIXTURES_DIR } from "../options.ts";
import { post, useSim } from "../testing/http.ts";

const sim = useSim();
const fixture = (path: string) => readFileSync(join(DEFAULT_FIXTURES_DIR, path), "utf8");
const lines = (path: string) =>
  fixture(path)
    .split(/\r?\n/)
    .filter((line) => line.trim() !== "");
const typeOf = (line: string) => /^\{"type":"([^"]+)"/.exec(line)?.[1];

const OPENAI = { authorization: "Bearer k" };
const ANTHROPIC = { "x-api-key": "k", "anthropic-version": "2023-06-01" };
const GEMINI = { "x-goog-api-key": "k" };
const chat = (text: string) => ({
  model: "m",
  stream: true,
  messages: [{ role: "user", content: text }],
});

describe("[[replay:PATH]]", () => {
  it("replays an Anthropic recording with event: lines", async () => {
    const path = "anthropic/anthropic-text.chunks.txt";
    const response = await post(
      `${sim().url}/v1/messages`,
      { ...chat(`[[replay:${path}]]`), max_tokens: 5 },
      ANTHROPIC,
    );
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(await response.text()).toBe(
      lines(path)
        .map((l) => `event: ${typeOf(l)}\ndata: ${l}\n\n`)
        .join(""),
    );
  });

  it("replays an OpenAI chat recording followed by [DONE]", async () => {
    const path = "openai-chat/openai-text.chunks.txt";
    const response = await post(
      `${sim().url}/v1/chat/completions`,
      chat(`[[replay:${path}]]`),
      OPENAI,
    );
    expect(await response.text()).toBe(
      `${lines(path)
        .map((l) => `data: ${l}\n\n`)
        .join("")}data: [DONE]\n\n`,
    );
  });

  it("replays an OpenAI Responses recording as named events, invalid lines included", async () => {
    const path = "openai-responses/parallel-tool-call-wrapper.1.chunks.txt";
    const response = await post(
      `${sim().url}/v1/chat/completions`,
      chat(`[[replay:${path}]]`),
      OPENAI,
    );
    expect(await response.text()).toBe(
      lines(path)
        .map((l) => `event: ${typeOf(l)}\ndata: ${l}\n\n`)
        .join(""),
    );
  });

  it("replays a Gemini recording as CRLF SSE, or as a JSON array without alt=sse", async () => {
    const path = "gemini/google-reasoning.chunks.txt";
    const body = { contents: [{ role: "user", parts: [{ text: `[[replay:${path}]]` }] }] };
    const base = `${sim().url}/v1beta/models/gemini-3-pro-preview:streamGenerateContent`;
    const sse = await post(`${base}?alt=sse`, body, GEMINI);
    expect(await sse.text()).toBe(
      lines(path)
        .map((l) => `data: ${l}\r\n\r\n`)
        .join(""),
    );
    const array = await post(base, body, GEMINI);
    expect(JSON.parse(await array.text())).toEqual(lines(path).map((l) => JSON.parse(l)));
  });

  it("returns a .json recording verbatim, with the status of a recorded error", async () => {
    const text = "anthropic/anthropic-text.json";
    const whole = await post(
      `${sim().url}/v1/messages`,
      { ...chat(`[[replay:${text}]]`), stream: false, max_tokens: 5 },
      ANTHROPIC,
    );
    expect(whole.status).toBe(200);
    expect(await whole.text()).toBe(fixture(text));

    const error = "gemini/google-429-retry-info.json";
    const body = { contents: [{ role: "user", parts: [{ text: `[[replay:${error}]]` }] }] };
    const limited = await post(`${sim().url}/v1beta/models/m:generateContent`, body, GEMINI);
    expect(limited.status).toBe(429);
    expect(await limited.text()).toBe(fixture(error));
  });

  it("refuses paths outside the fixtures folder and missing files", async () => {
    for (const path of ["../DESIGN.md", "openai-chat/nope.chunks.txt"]) {
      const response = await post(
        `${sim().url}/v1/chat/completions`,
        chat(`[[replay:${path}]]`),
        OPENAI,
      );
      expect(response.status).toBe(400);
    }
  });
});
