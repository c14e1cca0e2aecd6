/**
 * Cheap checks that an upstream stream is the SSE of JSON frames its protocol promises. They look
 * at a few bytes per frame, never parse: the same-format fast path relays bytes it does not read,
 * and must still not hand a client a frame cut in half or an HTML page (issue 15, item 7).
 */

/** A same-format stream carried a frame that is not JSON: the stream ends with an error event. */
export class MalformedStreamError extends Error {
  override readonly name = "MalformedStreamError";
}

const SSE_FIELDS = ["data", "event", "id", "retry"];

/**
 * Whether the first bytes can start an SSE stream (a JSON body or HTML page cannot); bytes that
 * stop inside a field name (a tiny first chunk) get the benefit of the doubt.
 */
export function startsLikeSse(first: Uint8Array): boolean {
  let at = 0;
  if (first[0] === 0xef && first[1] === 0xbb && first[2] === 0xbf) at = 3;
  while (at < first.length && (first[at] === 0x0a || first[at] === 0x0d)) at++;
  if (at >= first.length) return true;
  if (first[at] === 0x3a) return true;
  let name = "";
  for (; at < first.length && name.length <= 5; at++) {
    const byte = first[at]!;
    if (byte === 0x3a || byte === 0x0a || byte === 0x0d) return SSE_FIELDS.includes(name);
    name += String.fromCharCode(byte);
  }
  // The chunk ended inside the name: acceptable while it is a prefix of a field.
  return at >= first.length && SSE_FIELDS.some((field) => field.startsWith(name));
}

const OPEN = new Set([0x7b, 0x5b]); // { [
const CLOSE = new Set([0x7d, 0x5d]); // } ]

/** A frame's data as a JSON object or array would start and end (`[DONE]` and empty pass). */
export function wellFormedData(data: string): boolean {
  if (data === "" || data === "[DONE]") return true;
  return OPEN.has(data.charCodeAt(0)) && CLOSE.has(data.charCodeAt(data.length - 1));
}

/**
 * Whether every whole frame of `text` between `from` (a frame start) and `to` whose last line is
 * a `data:` line ends that line with `}` or `]` (`[DONE]`) (a run the tap skips unparsed; comments
 * and other fields pass).
 */
export function wellEndedFrames(
  text: string,
  from: number,
  to: number,
  separator: string,
): boolean {
  let start = from;
  while (start < to) {
    const end = text.indexOf(separator, start);
    if (end < 0 || end >= to) return true;
    const lineStart = text.lastIndexOf("\n", end - 1) + 1;
    const lastLine = Math.max(lineStart, start);
    // (A CRLF stream's separator starts with its \r: the data line ends just before it.)
    if (text.startsWith("data:", lastLine) && !CLOSE.has(text.charCodeAt(end - 1))) return false;
    start = end + separator.length;
  }
  return true;
}
