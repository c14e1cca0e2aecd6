import {
  type FieldChecks,
  fitsFields,
  isJsonRecord,
  isString,
  isTokenCount,
  nullishField,
  objectField,
  optionalField,
  type Usage,
} from "@interlingua/core-types";
import { type MessagesUsageFields, parseMessagesUsage } from "./map-messages-usage.js";

/** messages-api.ts `messagesUsageSchema`, field for field: what the reply's parse takes. */
const USAGE_FIELDS: FieldChecks = {
  input_tokens: isTokenCount,
  output_tokens: isTokenCount,
  cache_creation_input_tokens: nullishField(isTokenCount),
  cache_read_input_tokens: nullishField(isTokenCount),
  cache_creation: nullishField(
    objectField({
      ephemeral_5m_input_tokens: optionalField(isTokenCount),
      ephemeral_1h_input_tokens: optionalField(isTokenCount),
    }),
  ),
  service_tier: nullishField(isString),
  inference_geo: nullishField(isString),
  output_tokens_details: nullishField(
    objectField({ thinking_tokens: optionalField(isTokenCount) }),
  ),
};

/**
 * A messages reply's usage without parsing the reply (billing reads every relayed one): the
 * usage `parseMessagesResponse` makes, when the reply's usage is as the schema takes it.
 * Anything else is undefined: the full parse decides.
 */
export function readMessagesReplyUsage(reply: unknown): Usage | undefined {
  if (!isJsonRecord(reply) || !fitsFields(reply["usage"], USAGE_FIELDS)) return undefined;
  return parseMessagesUsage(reply["usage"] as MessagesUsageFields);
}
