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
import { parseResponsesUsage } from "./map-responses-usage.js";
import type { ResponsesUsage } from "./responses-stream-api.js";

/** responses-stream-api.ts `responsesUsageSchema`, field for field: what the parse takes. */
const USAGE_FIELDS: FieldChecks = {
  input_tokens: isTokenCount,
  input_tokens_details: nullishField(
    objectField({
      cached_tokens: isTokenCount,
      cache_write_tokens: optionalField(isTokenCount),
    }),
  ),
  output_tokens: isTokenCount,
  output_tokens_details: nullishField(objectField({ reasoning_tokens: isTokenCount })),
  total_tokens: isTokenCount,
};

/**
 * A Responses object's usage without parsing the object (billing reads every relayed one): the
 * usage `parseResponsesResponse` makes, when the object has its `output` list and its usage is
 * as the schema takes it. Anything else (an error body, no usage) is undefined: the parse decides.
 */
export function readResponsesReplyUsage(reply: unknown): Usage | undefined {
  if (!isJsonRecord(reply) || !Array.isArray(reply["output"])) return undefined;
  const usage = reply["usage"];
  return fitsFields(usage, USAGE_FIELDS) ? parseResponsesUsage(usage as ResponsesUsage) : undefined;
}
