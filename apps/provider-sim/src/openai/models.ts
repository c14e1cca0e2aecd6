import type { Handler } from "hono";
import type { SimEnv } from "../core/env.ts";
import type { Sim } from "../core/sim.ts";
import { openaiPreamble } from "./preamble.ts";

/** The simulator answers for any model name; this list is what `GET /v1/models` advertises. */
export const OPENAI_MODELS = [
  "gpt-4.1-mini",
  "gpt-5",
  "deepseek-reasoner",
  "gpt-image-1",
  "gpt-4o-mini-tts",
  "whisper-1",
  "gpt-4o-transcribe",
];

/** GET /v1/models (OpenAI shape). */
export function openaiModelsRoute(sim: Sim): Handler<SimEnv> {
  return (c) => {
    const request = openaiPreamble(c, sim);
    if (request instanceof Response) return request;
    return c.json({
      object: "list",
      data: OPENAI_MODELS.map((id) => ({
        id,
        object: "model",
        created: 1_700_000_000,
        owned_by: "provider-sim",
      })),
    });
  };
}
