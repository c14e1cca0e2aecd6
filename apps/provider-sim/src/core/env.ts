import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestBody } from "./request-body.ts";

/** Hono environment: Node bindings exist only when served by @hono/node-server, not via app.fetch. */
export type SimEnv = {
  Bindings: { incoming?: IncomingMessage; outgoing?: ServerResponse };
  Variables: { body: RequestBody };
};
