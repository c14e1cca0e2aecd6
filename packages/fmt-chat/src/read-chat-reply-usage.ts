import {
  type FieldChecks,
  fitsFields,
  isJsonRecord,
  isTokenCount,
  nullishField,
  objectField,
  optionalField,
  type Usage,
} from "@interlingua/core-types";
import type { ChatUsage } from "./chat-api.js";
import { parseChatUsage } from "./map-chat-usage.js";

/** chat-api.ts `chatUsageSchema`, field for field: what the reply's parse takes of its usage. */
const USAGE_FIELDS: FieldChecks = {
  prompt_tokens: isTokenCount,
  completion_tokens: isTokenCount,
  total_tokens: optionalField(isTokenCount),
  prompt_tokens_details: nullishField(
    objectField({
      cached_tokens: nullishField(isTokenCount),
      cache_write_tokens: nullishField(isTokenCount),
    }),
  ),
  completion_tokens_details: nullishField(
    objectField({ reasoning_tokens: nullishField(isTokenCount) }),
  ),
};

/**
 * A chat reply's usage without parsing the reply (billing reads every relayed one): the usage
 * `parseChatResponse` makes, when its usage and service tier are as the schema takes them.
 * Anything else (no usage, a count that is no count) is undefined: the full parse decides.
 */
export function readChatReplyUsage(reply: unknown): Usage | undefined {
  if (!isJsonRecord(reply)) return undefined;
  const { usage, service_tier: tier } = reply;
  if (!fitsFields(usage, USAGE_FIELDS) || !(tier == null || typeof tier === "string")) {
    return undefined;
  }
  return parseChatUsage(usage as ChatUsage, tier);
}
