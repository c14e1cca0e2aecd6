import { checkKey } from "../core/keys.ts";
import type { ProtocolErrors } from "../core/protocol-errors.ts";

/**
 * Gemini takes the key from `x-goog-api-key` or `?key=`. Like the real API, a missing key is a
 * 403 PERMISSION_DENIED and a wrong one a 400 INVALID_ARGUMENT with reason API_KEY_INVALID.
 */
export function geminiAuth(
  headers: Headers,
  url: URL,
  accepted: ReadonlySet<string> | undefined,
  errors: ProtocolErrors,
): Response | undefined {
  const check = checkKey(
    accepted,
    headers.get("x-goog-api-key") ?? url.searchParams.get("key") ?? undefined,
  );
  if (check === "missing") {
    return errors.response(403, {
      message:
        "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
    });
  }
  if (check === "invalid") {
    return errors.response(400, {
      message: "API key not valid. Please pass a valid API key.",
      reason: "API_KEY_INVALID",
    });
  }
  return undefined;
}
