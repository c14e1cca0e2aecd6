import type { Agent } from "undici";
import type { TokenStore } from "./auth/token-store.ts";
import type { GatewayConfig } from "./config/config-schema.ts";
import type { Logger } from "./log/logger.ts";
import type { ModelRouter } from "./routing/model-router.ts";
import type { DrainLimits } from "./stream/detach-on-cancel.ts";

/** Everything a request handler needs, built once at start. */
export interface GatewayServices {
  readonly config: GatewayConfig;
  readonly tokens: TokenStore;
  readonly router: ModelRouter;
  readonly agent: Agent;
  readonly log: Logger;
  /** How long and how much of an upstream stream is still read after its client went away. */
  readonly drain: DrainLimits;
  /** Idle time after which an SSE stream gets a keep-alive comment. */
  readonly keepAliveMs: number;
  /** Unix seconds; the `created` of `GET /v1/models`. */
  readonly startedAt: number;
}
