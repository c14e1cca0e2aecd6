import { checkKey } from "../core/keys.ts";
import type { ProtocolErrors } from "../core/protocol-errors.ts";

const MESSAGES = {
  missing:
    "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
  invalid:
    "Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.",
};

/** The key of `Authorization: Bearer <key>`, if the header has that form. */
export function openaiApiKey(headers: Headers): string | undefined {
  return headers
    .get("authorization")
    ?.match(/^Bearer\s+(.+)$/i)?.[1]
    ?.trim();
}

/** OpenAI authenticates with `Authorization: Bearer <key>`; both failures are 401s. */
export function openaiAuth(
  headers: Headers,
  accepted: ReadonlySet<string> | undefined,
  errors: ProtocolErrors,
): Response | undefined {
  const check = checkKey(accepted, openaiApiKey(headers));
  if (check === "ok") return undefined;
  return errors.response(401, {
    message: MESSAGES[check],
    ...(check === "missing" ? {} : { reason: "invalid_api_key" }),
  });
}
