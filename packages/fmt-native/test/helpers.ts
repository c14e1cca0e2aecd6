import { readFileSync } from "node:fs";
import type {
  LogprobCandidate,
  OutputLogprobs,
  SseMessage,
  StreamEvent,
} from "@interlingua/core-types";
import { NativeStreamDecoder } from "../src/parse-native-stream.js";
import { NativeStreamEncoder } from "../src/render-native-stream.js";

const fixtures = new URL("../../../fixtures/gemini/", import.meta.url);

export const readFixture = (name: string) => readFileSync(new URL(name, fixtures), "utf8");

/** A recording's frames: one SSE data payload per line. */
export const fixtureFrames = (name: string) =>
  readFixture(`${name}.chunks.txt`)
    .split("\n")
    .filter((line) => line.trim() !== "");

/** The thoughtSignatures of a recording, read straight from its text, in order. */
export const signaturesIn = (text: string) =>
  [...text.matchAll(/"thoughtSignature":\s*"([^"]+)"/g)].map((m) => m[1] as string);

/** Decodes frames (payloads or objects) synchronously. */
export function decodeFrames(frames: readonly (string | object)[]): StreamEvent[] {
  const events: StreamEvent[] = [];
  const decoder = new NativeStreamDecoder();
  for (const frame of frames) {
    const data = typeof frame === "string" ? frame : JSON.stringify(frame);
    decoder.push({ data }, (e) => events.push(e));
  }
  decoder.end((e) => events.push(e));
  return events;
}

export function encodeEvents(events: readonly StreamEvent[]): SseMessage[] {
  const out: SseMessage[] = [];
  const encoder = new NativeStreamEncoder();
  for (const event of events) encoder.push(event, (m) => out.push(m));
  encoder.end((m) => out.push(m));
  return out;
}

export function firstSignature(text: string): string {
  const [signature] = signaturesIn(text);
  if (signature === undefined) throw new Error("the recording holds no thoughtSignature");
  return signature;
}

/**
 * A choice's logprobs as Gemini carries them: without token bytes, and only when there is
 * something to say (a token or a mean); undefined otherwise.
 */
export function nativeLogprobs(logprobs: OutputLogprobs | undefined): OutputLogprobs | undefined {
  if (logprobs === undefined) return undefined;
  if (logprobs.content.length === 0 && logprobs.average === undefined) return undefined;
  const bare = (c: LogprobCandidate): LogprobCandidate => {
    const { bytes: _bytes, ...rest } = c;
    return rest;
  };
  const content = logprobs.content.map((t) => ({
    ...bare(t),
    topLogprobs: t.topLogprobs.map(bare),
  }));
  return logprobs.average === undefined ? { content } : { content, average: logprobs.average };
}

/** `choice` with its logprobs as `nativeLogprobs` says. */
export function withNativeLogprobs<C extends { logprobs?: OutputLogprobs }>(choice: C): C {
  const { logprobs, ...rest } = choice;
  const kept = nativeLogprobs(logprobs);
  return (kept === undefined ? rest : { ...rest, logprobs: kept }) as C;
}
