import { describe, expect, it } from "vitest";
import { post, sseJson, useSim } from "../testing/http.ts";

// Gemini's logprobs (generationConfig.responseLogprobs / logprobs): each candidate's tokens with
// their log probabilities and alternatives, and avgLogprobs, as the real API returns them.

const sim = useSim();
const KEY = { "x-goog-api-key": "AIza-test" };
const url = (method: string, query = "") =>
  `${sim().url}/v1beta/models/gemini-2.5-flash:${method}${query}`;
const body = (generationConfig: Record<string, unknown>) => ({
  contents: [{ role: "user", parts: [{ text: "Hello, Gemini" }] }],
  generationConfig,
});

type Candidate = {
  logprobsResult?: {
    chosenCandidates: { token: string; logProbability: number }[];
    topCandidates?: { candidates: { token: string }[] }[];
  };
  avgLogprobs?: number;
};

describe("logprobs", () => {
  it("are returned only when asked, one chosen token per word with its alternatives", async () => {
    const plain = await post(url("generateContent"), body({}), KEY);
    expect((await plain.json()).candidates[0]).not.toHaveProperty("logprobsResult");

    const res = await post(
      url("generateContent"),
      body({ responseLogprobs: true, logprobs: 2 }),
      KEY,
    );
    const candidate: Candidate = (await res.json()).candidates[0];
    const chosen = candidate.logprobsResult?.chosenCandidates ?? [];
    expect(chosen.map((c) => c.token).join("")).toBe("echo: Hello, Gemini");
    expect(chosen.every((c) => c.logProbability <= 0)).toBe(true);
    expect(candidate.logprobsResult?.topCandidates?.map((t) => t.candidates.length)).toEqual(
      chosen.map(() => 2),
    );
    expect(candidate.avgLogprobs).toBeCloseTo(
      chosen.reduce((n, c) => n + c.logProbability, 0) / chosen.length,
    );
  });

  it("stream: each chunk's words, and the mean on the last chunk", async () => {
    const res = await post(
      url("streamGenerateContent", "?alt=sse"),
      body({ responseLogprobs: true }),
      KEY,
    );
    const chunks = sseJson(await res.text()) as { candidates: Candidate[] }[];
    const tokens = chunks.flatMap(
      (c) => c.candidates[0]?.logprobsResult?.chosenCandidates.map((t) => t.token) ?? [],
    );
    expect(tokens.join("")).toBe("echo: Hello, Gemini");
    expect(chunks.at(-1)?.candidates[0]?.avgLogprobs).toBeLessThan(0);
  });
});
