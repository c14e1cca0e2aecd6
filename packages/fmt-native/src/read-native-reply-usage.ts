import {
  arrayField,
  type FieldChecks,
  fitsFields,
  isJsonRecord,
  isString,
  isTokenCount,
  objectField,
  optionalField,
  type Usage,
} from "@interlingua/core-types";
import { parseNativeUsage } from "./map-native-usage.js";
import type { NativeUsageMetadata } from "./native-api.js";

const count = optionalField(isTokenCount);

/** native-api.ts `nativeUsageMetadataSchema`, field for field: what the reply's parse takes. */
const USAGE_FIELDS: FieldChecks = {
  promptTokenCount: count,
  candidatesTokenCount: count,
  totalTokenCount: count,
  thoughtsTokenCount: count,
  cachedContentTokenCount: count,
  promptTokensDetails: optionalField(
    arrayField(objectField({ modality: isString, tokenCount: count })),
  ),
  serviceTier: optionalField(isString),
};

/**
 * A Gemini reply's usage without parsing the reply (billing reads every relayed one): the usage
 * `parseNativeResponse` makes, when the reply's usageMetadata is as the schema takes it.
 * Anything else (none, a count that is no count) is undefined: the full parse decides.
 */
export function readNativeReplyUsage(reply: unknown): Usage | undefined {
  if (!isJsonRecord(reply) || !fitsFields(reply["usageMetadata"], USAGE_FIELDS)) return undefined;
  return parseNativeUsage(reply["usageMetadata"] as NativeUsageMetadata);
}
