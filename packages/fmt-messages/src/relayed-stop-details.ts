import type { RelayEdits } from "@interlingua/core-types";
import { withErrorRequestId } from "./relayed-error-id.js";

// An unescaped `"key"` can only be a key: inside a JSON string every quote is escaped.
const STOP_DETAILS = '"stop_details"';
const STOP_REASON = '"stop_reason"';
/** The stop_reason member, whose value is null or a string. */
const STOP_REASON_MEMBER = /"stop_reason"\s*:\s*(?:null|"(?:[^"\\]|\\.)*")/y;
const MESSAGE_START = '"message_start"';

/**
 * How deep `at` lies in the JSON text before it: 1 inside the top-level object. Strings are
 * skipped whole, so braces in text do not count.
 */
function depthAt(json: string, at: number): number {
  let depth = 0;
  for (let i = 0; i < at; i++) {
    const c = json.charCodeAt(i);
    if (c === 0x22) {
      // A string: to its closing quote, past escaped characters.
      for (i++; i < at && json.charCodeAt(i) !== 0x22; i++) if (json.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return depth;
}

/**
 * A messages result (a body, or a message_start frame) as text, given `"stop_details":null` after
 * its stop_reason, where Anthropic writes it, when it has none (docs/api-reference.md: "Null for
 * ordinary requests"). The top-level stop_reason is the last in Anthropic's order (content, where
 * a tool's input could hold such a key, comes before it), and it is checked to be a member of
 * the message itself: a reply ordered otherwise is left as it is rather than a tool's input
 * edited. A text naming stop_details anywhere (even as a tool input's key) is left as it is, so
 * a field is never written twice.
 */
export function withStopDetailsText(json: string, messageDepth = 1): string {
  if (json.includes(STOP_DETAILS)) return json;
  const at = json.lastIndexOf(STOP_REASON);
  if (at < 0 || depthAt(json, at) !== messageDepth) return json;
  STOP_REASON_MEMBER.lastIndex = at;
  const member = STOP_REASON_MEMBER.exec(json);
  if (member === null) return json;
  const end = at + member[0].length;
  return `${json.slice(0, end)},"stop_details":null${json.slice(end)}`;
}

/**
 * A same-format reply relayed as Anthropic sent it, with the fields a messages client always
 * gets: the body's stop_details, and message_start's (no other frame holds a whole message); an
 * error event's message ending with the request id.
 */
export const messagesRelayEdits: RelayEdits = {
  body: withStopDetailsText,
  // message_start's message is one level down: {"type":"message_start","message":{...}}. An
  // error event's message names the request, as the endpoint's error bodies do.
  frame: (text, requestId) =>
    text.includes(MESSAGE_START)
      ? withStopDetailsText(text, 2)
      : withErrorRequestId(text, requestId),
};
