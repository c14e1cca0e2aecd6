import type { AuthenticatedToken } from "../auth/token-store.ts";
import type { ErrorFamily } from "./error-response.ts";

/** Values the middleware and routes put on a request's context. */
export type AppEnv = {
  Variables: {
    requestId: string;
    /** The error body of a route whose envelope is not its path's (http/route-envelope.ts). */
    errors?: ErrorFamily;
    /** The request body was not read to its end: an error answer closes the connection. */
    closeConnection?: boolean;
  };
};

/** Routes behind `requireKey` (http/require-key.ts): the caller's token, authenticated once. */
export type KeyedEnv = { Variables: AppEnv["Variables"] & { token: AuthenticatedToken } };
