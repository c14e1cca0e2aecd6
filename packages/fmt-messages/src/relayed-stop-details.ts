import type { RelayEdits } from "@interlingua/core-types";

// An unescaped `"key"` can only be a key: inside a JSON string every quote is escaped.
const STOP_DETAILS = '"stop_details"';
const STOP_REASON = '"stop_reason"';
/** The stop_reason member, whose value is null or a string. */
const STOP_REASON_MEMBER = /"stop_reason"\s*:\s*(?:null|"(?:[^"\\]|\\.)*")/y;
const MESSAGE_START = '"message_start"';

/**
 * A messages result (a body, or a message_start frame) as text, given `"stop_details":null` after
 * its stop_reason, where Anthropic writes it, when it has none (docs/api-reference.md: "Null for
 * ordinary requests"). The top-level stop_reason is the last: content, where a tool's input could
 * hold such a key, comes before it. A text naming stop_details anywhere (even as a tool input's
 * key) is left as it is, so a field is never written twice.
 */
export function withStopDetailsText(json: string): string {
  if (json.includes(STOP_DETAILS)) return json;
  const at = json.lastIndexOf(STOP_REASON);
  if (at < 0) return json;
  STOP_REASON_MEMBER.lastIndex = at;
  const member = STOP_REASON_MEMBER.exec(json);
  if (member === null) return json;
  const end = at + member[0].length;
  return `${json.slice(0, end)},"stop_details":null${json.slice(end)}`;
}

/**
 * A same-format reply relayed as Anthropic sent it, with the fields a messages client always
 * gets: the body's stop_details, and message_start's (no other frame holds a whole message).
 */
export const messagesRelayEdits: RelayEdits = {
  body: withStopDetailsText,
  frame: (text) => (text.includes(MESSAGE_START) ? withStopDetailsText(text) : text),
};
