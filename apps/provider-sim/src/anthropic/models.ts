import type { Handler } from "hono";
import type { SimEnv } from "../core/env.ts";
import type { Sim } from "../core/sim.ts";
import { anthropicPreamble } from "./preamble.ts";

/** The simulator answers for any model name; this list is what `GET /v1/models` advertises. */
export const ANTHROPIC_MODELS = ["claude-sonnet-4-5", "claude-opus-4-1", "claude-haiku-4-5"];

/** GET /v1/models (Anthropic shape, chosen when the request carries `anthropic-version`). */
export function anthropicModelsRoute(sim: Sim): Handler<SimEnv> {
  return (c) => {
    const request = anthropicPreamble(c, sim);
    if (request instanceof Response) return request;
    return c.json({
      data: ANTHROPIC_MODELS.map((id) => ({
        type: "model",
        id,
        display_name: id,
        created_at: "2025-01-01T00:00:00Z",
      })),
      has_more: false,
      first_id: ANTHROPIC_MODELS[0],
      last_id: ANTHROPIC_MODELS[ANTHROPIC_MODELS.length - 1],
    });
  };
}
