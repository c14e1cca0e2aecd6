import { asArray, asObject, asString } from "../core/json.ts";
import type { ToolChoice } from "../core/turn.ts";
import type { PromptSegment } from "./prompt-segments.ts";

// What the chat-completions and Responses turn readers share: content text, the string tool
// choices, and the prompt's size as its prefix-cache segments count it.

/** The text of a message's content: a string, or its text parts joined by newlines. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  return asArray(content)
    .map((part) => asString(asObject(part)?.text))
    .filter((text) => text !== undefined)
    .join("\n");
}

/** `tool_choice` given as a string; an unknown one means auto. */
export const STRING_TOOL_CHOICES: Record<string, ToolChoice> = {
  none: { kind: "none" },
  auto: { kind: "auto" },
  required: { kind: "any" },
};

/** The prompt's text characters and its media parts, summed over its segments. */
export function segmentSize(segments: readonly PromptSegment[]): {
  promptChars: number;
  mediaParts: number;
} {
  let promptChars = 0;
  let mediaParts = 0;
  for (const segment of segments) {
    if (segment.kind === "media") mediaParts += 1;
    else promptChars += segment.text.length;
  }
  return { promptChars, mediaParts };
}
