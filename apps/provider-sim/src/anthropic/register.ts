import type { Hono } from "hono";
import type { SimEnv } from "../core/env.ts";
import type { Sim } from "../core/sim.ts";
import { countTokensRoute } from "./count-tokens-route.ts";
import { messagesRoute } from "./messages-route.ts";

export function registerAnthropic(app: Hono<SimEnv>, sim: Sim): void {
  app.post("/v1/messages", messagesRoute(sim));
  app.post("/v1/messages/count_tokens", countTokensRoute(sim));
}
