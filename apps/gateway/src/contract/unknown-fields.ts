import type { Warning } from "@interlingua/core-types";
import type { GatewayError } from "@interlingua/errors";
import { isStrict, strictRefusal, warningsHeaders } from "./client-contract.ts";

/**
 * The fields a client sent that its endpoint does not take (OpenAI's speech `instructions`, a
 * transcription's `timestamp_granularities[]`, an upload's extra form part, a typo): not
 * forwarded nor kept, so each is a `dropped` warning.
 */
export function unknownFieldWarnings(
  sent: Iterable<string>,
  known: Readonly<Record<string, unknown>>,
): Warning[] {
  const warnings: Warning[] = [];
  for (const field of sent) {
    if (Object.hasOwn(known, field)) continue;
    warnings.push({ type: "dropped", feature: field, message: "not a field of this endpoint" });
  }
  return warnings;
}

/**
 * Unknown fields as the answer's `x-interlingua-warnings` header, or, under
 * `x-interlingua-strict: true`, the 400 naming the first of them.
 */
export function checkUnknownFields(
  request: Headers,
  sent: Iterable<string>,
  known: Readonly<Record<string, unknown>>,
): { ok: true; headers: Record<string, string> } | { ok: false; error: GatewayError } {
  const warnings = unknownFieldWarnings(sent, known);
  const refusal = isStrict(request) ? strictRefusal(warnings) : undefined;
  if (refusal !== undefined) return { ok: false, error: refusal };
  return { ok: true, headers: warningsHeaders(warnings) };
}
