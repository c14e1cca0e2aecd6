import type { Context, MiddlewareHandler } from "hono";
import { type AuthServices, authenticate } from "../auth/authenticate.ts";
import type { CredentialGroup } from "../auth/credential-sources.ts";
import type { AuthenticatedToken } from "../auth/token-store.ts";
import type { KeyedEnv } from "../contract/app-env.ts";

export interface KeyOptions {
  /** Where the key is read (default `standard`: the Bearer header). */
  readonly group?: CredentialGroup;
  /** Runs before a refusal is thrown: the upload route reads (and drops) the body first. */
  readonly beforeRefusal?: (c: Context<KeyedEnv>) => Promise<void>;
}

/**
 * The API key (where the standard endpoints accept it) and its rate limits, checked once before
 * the route: the token goes on the context (`c.get("token")`); a refusal is thrown, for the app's
 * error handler to answer in the route's envelope (http/route-envelope.ts). The generation
 * endpoints call `authenticate` themselves: their Node listener serves them without Hono.
 */
export function requireKey(
  services: AuthServices,
  options: KeyOptions = {},
): MiddlewareHandler<KeyedEnv> {
  return async (c, next) => {
    let token: AuthenticatedToken;
    try {
      token = await authenticate(
        services,
        options.group ?? "standard",
        c.req.raw.headers,
        new URL(c.req.url),
      );
    } catch (refusal) {
      await options.beforeRefusal?.(c);
      throw refusal;
    }
    c.set("token", token);
    await next();
  };
}
