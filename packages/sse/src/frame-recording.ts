import { DONE } from "./done.js";
import type { SseEvent } from "./sse-event.js";

/** How each upstream frames the payloads of a recording (fixtures/README.md at the repository root). */
export type RecordingProtocol = "anthropic" | "openai" | "gemini";

/** The fixture folders and the framing of their upstream. */
export const fixtureFolderProtocols = {
  anthropic: "anthropic",
  "openai-chat": "openai",
  // The fixtures README frames every OpenAI recording the same way; the live Responses API
  // also sets `event:` and sends no [DONE].
  "openai-responses": "openai",
  gemini: "gemini",
} as const satisfies Record<string, RecordingProtocol>;

// Read textually: the first key of every Anthropic payload is `type`, and one recording holds a
// line that is not valid JSON.
const typeOf = (line: string) => /^\{\s*"type"\s*:\s*"([^"\\]*)"/.exec(line)?.[1] ?? "";

/** The wire text of each payload, written out literally rather than through the encoder. */
const framings: Record<RecordingProtocol, { frame(line: string): string; end: string }> = {
  anthropic: { frame: (line) => `event: ${typeOf(line)}\ndata: ${line}\n\n`, end: "" },
  openai: { frame: (line) => `data: ${line}\n\n`, end: `data: ${DONE}\n\n` },
  gemini: { frame: (line) => `data: ${line}\r\n\r\n`, end: "" },
};

const expectations: Record<RecordingProtocol, (lines: readonly string[]) => SseEvent[]> = {
  anthropic: (lines) => lines.map((data) => ({ event: typeOf(data), data })),
  openai: (lines) => [...lines.map((data) => ({ data })), { data: DONE }],
  gemini: (lines) => lines.map((data) => ({ data })),
};

/** The payload lines of a `*.chunks.txt` recording: one JSON value a line, blank lines skipped. */
export function recordingLines(text: string): string[] {
  return text.split("\n").filter((line) => line.trim() !== "");
}

/** A recording's payloads as the SSE body its upstream sends. */
export function frameRecording(lines: readonly string[], protocol: RecordingProtocol): string {
  const { frame, end } = framings[protocol];
  let out = "";
  for (const line of lines) out += frame(line);
  return out + end;
}

/** The events that body decodes to. */
export function recordingEvents(lines: readonly string[], protocol: RecordingProtocol): SseEvent[] {
  return expectations[protocol](lines);
}
