import type { WireFormat } from "./wire-format.js";

/**
 * Replies name the model the client asked for (an alias, or the gateway's id for a channel's own
 * model name), not the upstream's. A body passed through byte for byte gets only its model field
 * rewritten, in place, so nothing else of it changes (numbers, key order, unknown fields).
 */
interface ModelField {
  /** The JSON key of the reply's model. */
  readonly key: string;
  /**
   * Which occurrence is the top-level one: OpenAI and Anthropic write `model` before any content;
   * Gemini writes `modelVersion` after its candidates.
   */
  readonly at: "first" | "last";
  /** Whether a stream's every frame names the model (chat chunks, Gemini chunks). */
  readonly everyFrame: boolean;
}

export const REPLY_MODEL_FIELD: Readonly<Record<WireFormat, ModelField>> = {
  chat: { key: "model", at: "first", everyFrame: true },
  messages: { key: "model", at: "first", everyFrame: false },
  native: { key: "modelVersion", at: "last", everyFrame: true },
  responses: { key: "model", at: "first", everyFrame: false },
};

/** A JSON string literal, escapes included. */
const STRING = String.raw`"(?:[^"\\]|\\.)*"`;
const patterns = new Map<string, { first: RegExp; all: RegExp }>();

function patternsFor(key: string): { first: RegExp; all: RegExp } {
  let found = patterns.get(key);
  if (found === undefined) {
    // An unescaped `"key":` can only be a key: inside a JSON string every quote is escaped.
    const source = `"${key}"(\\s*:\\s*)${STRING}`;
    found = { first: new RegExp(source), all: new RegExp(source, "g") };
    patterns.set(key, found);
  }
  return found;
}

/** `json` (a body, a frame's data, or a whole SSE block) with its reply model set to `model`. */
export function renameReplyModel(format: WireFormat, json: string, model: string): string {
  const field = REPLY_MODEL_FIELD[format];
  const { first, all } = patternsFor(field.key);
  const value = JSON.stringify(model);
  if (field.at === "first") {
    return json.replace(first, (_match, colon: string) => `"${field.key}"${colon}${value}`);
  }
  let last = -1;
  let length = 0;
  let colon = ":";
  all.lastIndex = 0;
  for (let m = all.exec(json); m !== null; m = all.exec(json)) {
    last = m.index;
    length = m[0].length;
    colon = m[1] ?? ":";
  }
  if (last < 0) return json;
  return `${json.slice(0, last)}"${field.key}"${colon}${value}${json.slice(last + length)}`;
}
