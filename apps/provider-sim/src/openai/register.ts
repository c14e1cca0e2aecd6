import type { Hono } from "hono";
import type { SimEnv } from "../core/env.ts";
import type { Sim } from "../core/sim.ts";
import { chatCompletionsRoute } from "./chat-route.ts";
import { imageFileRoute, imagesRoute } from "./images.ts";
import { inputTokensRoute } from "./input-tokens-route.ts";
import { responsesRoute } from "./responses-route.ts";
import { speechRoute } from "./speech.ts";
import { transcriptionsRoute } from "./transcriptions.ts";

export function registerOpenai(app: Hono<SimEnv>, sim: Sim): void {
  app.post("/v1/chat/completions", chatCompletionsRoute(sim));
  app.post("/v1/responses", responsesRoute(sim));
  app.post("/v1/responses/input_tokens", inputTokensRoute(sim));
  app.post("/v1/images/generations", imagesRoute(sim));
  app.post("/v1/audio/speech", speechRoute(sim));
  app.post("/v1/audio/transcriptions", transcriptionsRoute(sim));
  app.get("/files/:name", imageFileRoute);
}
