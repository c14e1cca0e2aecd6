import { hexId } from "../core/hash.ts";
import { asString, type JsonObject } from "../core/json.ts";

// OpenAI's `encrypted_content`: the model's reasoning, opaque to the client, handed back on the
// next turn of a stateless conversation. The simulator seals the reasoning text with a digest, so
// content changed by a single byte on the way back is refused as OpenAI refuses it.

const PREFIX = "gAAAAA";

const digest = (payload: string) => hexId(`sim-reasoning:${payload}`, 32);

export function sealReasoning(text: string): string {
  const payload = Buffer.from(text, "utf8").toString("base64url");
  return `${PREFIX}${payload}.${digest(payload)}`;
}

/** The reasoning text of sealed content, or undefined when it is not content this simulator sealed. */
export function openReasoning(sealed: string): string | undefined {
  if (!sealed.startsWith(PREFIX)) return undefined;
  const [payload, mac, ...rest] = sealed.slice(PREFIX.length).split(".");
  if (payload === undefined || mac === undefined || rest.length > 0) return undefined;
  if (digest(payload) !== mac) return undefined;
  return Buffer.from(payload, "base64url").toString("utf8");
}

/** The first replayed reasoning item whose content does not verify, as OpenAI's 400 message. */
export function unverifiedReasoning(items: readonly JsonObject[]): string | undefined {
  for (const item of items) {
    if (item.type !== "reasoning") continue;
    const sealed = asString(item.encrypted_content);
    if (sealed === undefined || openReasoning(sealed) !== undefined) continue;
    const id = asString(item.id) ?? "rs_unknown";
    return `The encrypted content for item ${id} could not be verified.`;
  }
  return undefined;
}
