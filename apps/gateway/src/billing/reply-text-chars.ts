/**
 * Characters of generated output in a reply body no codec could read (a same-format reply missing
 * a field its schema needs): the text a client would read, never the JSON around it, so a
 * non-stream estimate counts what a stream's estimate counts (issue 26, item 9).
 */
const TEXT_KEYS = new Set([
  "content",
  "text",
  "thinking",
  "refusal",
  "reasoning",
  "reasoning_content",
  "arguments",
  "partial_json",
]);
/** Tool arguments as objects (messages `input`, Gemini `args`): their JSON is the output. */
const ARGUMENT_KEYS = new Set(["input", "args"]);

export function replyTextChars(json: unknown): number {
  const chars = textChars(json);
  // A body with none of the known text fields: its strings are the best guess of its output.
  return chars > 0 ? chars : anyStringChars(json);
}

function anyStringChars(json: unknown): number {
  if (typeof json === "string") return json.length;
  if (typeof json !== "object" || json === null) return 0;
  let chars = 0;
  for (const value of Array.isArray(json) ? json : Object.values(json)) {
    chars += anyStringChars(value);
  }
  return chars;
}

function textChars(json: unknown, key?: string): number {
  if (typeof json === "string") return key !== undefined && TEXT_KEYS.has(key) ? json.length : 0;
  if (typeof json !== "object" || json === null) return 0;
  if (key !== undefined && ARGUMENT_KEYS.has(key) && !Array.isArray(json)) {
    return JSON.stringify(json).length;
  }
  let chars = 0;
  if (Array.isArray(json)) {
    // Items of a text array (chat `content` parts) count under their parent's key.
    for (const item of json) chars += textChars(item, key);
    return chars;
  }
  for (const [name, value] of Object.entries(json)) chars += textChars(value, name);
  return chars;
}
