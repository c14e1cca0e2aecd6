import { readFileSync } from "node:fs";
import type { SseMessage } from "@interlingua/core-types";

const folder = new URL("../../../fixtures/openai-chat/", import.meta.url);

export const fixtureNames = [
  "openai-text",
  "deepseek-reasoning",
  "deepseek-tool-call",
  "groq-tool-call",
] as const;
export type FixtureName = (typeof fixtureNames)[number];

/** A recorded stream's `data:` payloads, one per line. */
export function fixtureLines(name: FixtureName): string[] {
  return readFileSync(new URL(`${name}.chunks.txt`, folder), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
}

/** The recording as SSE messages framed the OpenAI way, `[DONE]` last. */
export function fixtureMessages(name: FixtureName): SseMessage[] {
  return [...fixtureLines(name).map((data) => ({ data })), { data: "[DONE]" }];
}

/** The recording as SSE bytes, as an upstream sends them. */
export function fixtureSseText(name: FixtureName, newline = "\n"): string {
  return fixtureMessages(name)
    .map((m) => `data: ${m.data}${newline}${newline}`)
    .join("");
}

export function fixtureJson(name: FixtureName): unknown {
  return JSON.parse(readFileSync(new URL(`${name}.json`, folder), "utf8"));
}
