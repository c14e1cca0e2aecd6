// Helpers for the simulator's own tests: real HTTP on 127.0.0.1, whole-body reads, SSE splitting.

import { afterAll, beforeAll } from "vitest";
import { type ProviderSim, type StartOptions, startProviderSim } from "../server.ts";

/** 2025-01-01T00:00:00Z: pinned so `created` fields can be asserted. */
export const FIXED_NOW = Date.UTC(2025, 0, 1);
export const FIXED_CREATED = FIXED_NOW / 1000;

/** Starts one simulator for the test file; the getter is valid inside tests. */
export function useSim(options: StartOptions = {}): () => ProviderSim {
  let sim: ProviderSim | undefined;
  beforeAll(async () => {
    sim = await startProviderSim({ now: () => FIXED_NOW, ...options });
  });
  afterAll(async () => {
    await sim?.close();
  });
  return () => {
    if (!sim) throw new Error("simulator not started");
    return sim;
  };
}

export function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
) {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

/** Reads a body to its end or to its failure, keeping what arrived before a failure. */
export async function readAll(response: Response): Promise<{ text: string; error: unknown }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, error: undefined };
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return { text, error };
  }
}

export type SseEvent = { event: string | undefined; data: string };

/** Splits an SSE body on blank lines (LF or CRLF) into events. */
export function sseEvents(text: string): SseEvent[] {
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim() !== "")
    .map((block) => {
      let event: string | undefined;
      const data: string[] = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith("event: ")) event = line.slice(7);
        else if (line.startsWith("data: ")) data.push(line.slice(6));
      }
      return { event, data: data.join("\n") };
    });
}

/** The parsed JSON payloads of an SSE body, `[DONE]` left out. */
export function sseJson(text: string): Record<string, unknown>[] {
  return sseEvents(text)
    .filter((e) => e.data !== "[DONE]")
    .map((e) => JSON.parse(e.data) as Record<string, unknown>);
}
