import { rateLimited, unauthenticated } from "@interlingua/errors";
import { inSpan } from "../log/tracing.ts";
import type { RateLimiter } from "../ratelimit/rate-limiter.ts";
import { type CredentialGroup, type RequestHeaders, readCredential } from "./credential-sources.ts";
import type { AuthenticatedToken, TokenStore } from "./token-store.ts";

/** What authenticating reads: the tokens and their rate limits. */
export interface AuthServices {
  readonly tokens: Pick<TokenStore, "lookup">;
  readonly limiter: Pick<RateLimiter, "admit">;
}

const REFUSALS = {
  invalid: "invalid API key",
  expired: "API key has expired",
  disabled: "API key is disabled",
} as const;

/**
 * The first two steps of every route (DESIGN.md §3): the API key from where the endpoint group
 * accepts it, then the token's rate limits. A refusal (401, 429) is thrown, for the route's one
 * error handler to answer in its own envelope.
 */
export const authenticate = (
  services: AuthServices,
  group: CredentialGroup,
  headers: RequestHeaders,
  url: URL,
): Promise<AuthenticatedToken> =>
  inSpan("auth", { "interlingua.credentials": group }, () =>
    checkCredentials(services, group, headers, url),
  );

async function checkCredentials(
  services: AuthServices,
  group: CredentialGroup,
  headers: RequestHeaders,
  url: URL,
): Promise<AuthenticatedToken> {
  const key = readCredential(group, headers, url);
  if (key === undefined) throw unauthenticated("missing API key");
  const found = await services.tokens.lookup(key);
  if (!found.ok) throw unauthenticated(REFUSALS[found.reason]);
  const admission = await services.limiter.admit(String(found.token.id), found.token.rateLimit);
  if (!admission.ok) {
    const seconds = Math.max(1, Math.ceil(admission.retryAfterMs / 1000));
    throw rateLimited(`rate limit reached for this API key; retry after ${seconds} s`, {
      retryAfterSeconds: seconds,
    });
  }
  return found.token;
}
