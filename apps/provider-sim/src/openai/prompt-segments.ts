import { sha256 } from "../core/hash.ts";
import { asArray, asObject, asString, type JsonObject } from "../core/json.ts";
import { CHARS_PER_TOKEN, MEDIA_PART_TOKENS } from "../core/tokens.ts";

// A chat-completions prompt as one run of text in the order the model reads it (tool
// definitions first, then the messages), cut into segments. Its length in characters is exactly
// what the token count is made of, so any prefix of it has a token count of its own: that is
// what OpenAI's automatic prefix cache works on.

export type PromptSegment =
  /** `marker`: where the segment starts (message index, role, kind): hashed, but not counted. */
  | { kind: "text"; marker: string; text: string }
  /** An image, audio or file part: counted as MEDIA_PART_TOKENS tokens. */
  | { kind: "media"; marker: string; part: JsonObject };

/** Four characters a token: a media part stands for MEDIA_PART_TOKENS tokens of placeholder. */
const MEDIA_CHARS = MEDIA_PART_TOKENS * CHARS_PER_TOKEN;

export const segmentLength = (segment: PromptSegment): number =>
  segment.kind === "text" ? segment.text.length : MEDIA_CHARS;

/**
 * The segment's counted text. A media part becomes a placeholder as long as its tokens and
 * unique to its content; it is made only when a prefix is hashed, never just to count.
 */
export function segmentText(segment: PromptSegment): string {
  if (segment.kind === "text") return segment.text;
  const digest = sha256(JSON.stringify(segment.part)).toString("hex");
  return digest.repeat(Math.ceil(MEDIA_CHARS / digest.length)).slice(0, MEDIA_CHARS);
}

function contentSegments(content: unknown, marker: string): PromptSegment[] {
  if (typeof content === "string") return [{ kind: "text", marker, text: content }];
  return asArray(content).flatMap((part): PromptSegment[] => {
    const p = asObject(part);
    if (!p) return [];
    if (typeof p.text === "string")
      return [{ kind: "text", marker: `${marker}/text`, text: p.text }];
    // image_url, input_audio, file
    return [{ kind: "media", marker: `${marker}/media`, part: p }];
  });
}

export function chatPromptSegments(body: JsonObject, messages: JsonObject[]): PromptSegment[] {
  const segments: PromptSegment[] = [];
  if (body.tools !== undefined)
    segments.push({ kind: "text", marker: "tools", text: JSON.stringify(body.tools) });
  messages.forEach((message, m) => {
    const marker = `${m}:${asString(message.role) ?? ""}`;
    segments.push(...contentSegments(message.content, marker));
    for (const call of asArray(message.tool_calls)) {
      const fn = asObject(asObject(call)?.function);
      const text = (asString(fn?.name) ?? "") + (asString(fn?.arguments) ?? "");
      segments.push({ kind: "text", marker: `${marker}/call`, text });
    }
  });
  return segments;
}
