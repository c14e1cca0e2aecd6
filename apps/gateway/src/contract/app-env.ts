/** Values the middleware puts on every request's context. */
export type AppEnv = { Variables: { requestId: string } };
