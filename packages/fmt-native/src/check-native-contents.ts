import { invalidField } from "@interlingua/errors";
import type { NativeContent, NativeInlineData } from "./native-api.js";

/**
 * What Gemini refuses in a request's contents (400 INVALID_ARGUMENT) that its schema cannot say:
 * checked at parse, so that a client of this format gets the refusal whatever model serves it
 * (on another provider an empty turn would go out as an empty prompt).
 */

// Bytes travel as proto3 JSON, whose readers take the standard and the URL-safe alphabets, padded
// or not; whitespace between the characters is tolerated here rather than refused.
const base64Text = /^[A-Za-z0-9+/_\s-]*(?:=\s*){0,2}$/;
const whitespace = /\s/;

function isBase64(data: string): boolean {
  if (!base64Text.test(data)) return false;
  // An image's megabytes are copied only when they hold whitespace to take out.
  const compact = whitespace.test(data) ? data.replace(/\s+/g, "") : data;
  let end = compact.length;
  while (end > 0 && compact.charCodeAt(end - 1) === 0x3d) end--;
  // A lone character after whole groups of four encodes no byte: no encoder writes it.
  return end % 4 !== 1;
}

function checkInlineData(data: NativeInlineData | undefined, path: readonly PropertyKey[]) {
  if (data === undefined || isBase64(data.data)) return;
  throw invalidField([...path, "inlineData", "data"], "must be base64-encoded bytes");
}

/** Refuses a turn with no parts and inline data that is not base64, naming the field. */
export function checkNativeContents(contents: readonly NativeContent[]): void {
  contents.forEach((content, c) => {
    const at = ["contents", c, "parts"] as const;
    if (content.parts.length === 0) throw invalidField(at, "must not be empty");
    content.parts.forEach((part, p) => {
      checkInlineData(part.inlineData, [...at, p]);
      part.functionResponse?.parts?.forEach((inner, i) => {
        checkInlineData(inner.inlineData, [...at, p, "functionResponse", "parts", i]);
      });
    });
  });
}
