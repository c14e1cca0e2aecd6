import { checkKey } from "../core/keys.ts";
import type { ProtocolErrors } from "../core/protocol-errors.ts";

const KEY_MESSAGES = { missing: "x-api-key header is required", invalid: "invalid x-api-key" };

/** Anthropic wants both `x-api-key` (401 without) and `anthropic-version` (400 without). */
export function anthropicAuth(
  headers: Headers,
  accepted: ReadonlySet<string> | undefined,
  errors: ProtocolErrors,
): Response | undefined {
  const check = checkKey(accepted, headers.get("x-api-key") ?? undefined);
  if (check !== "ok") return errors.response(401, { message: KEY_MESSAGES[check] });
  if (!headers.get("anthropic-version")) {
    return errors.response(400, { message: "anthropic-version: header is required" });
  }
  return undefined;
}
