import { Hono } from "hono";
import { anthropicModelsRoute } from "./anthropic/models.ts";
import { registerAnthropic } from "./anthropic/register.ts";
import type { SimEnv } from "./core/env.ts";
import { recorder } from "./core/record.ts";
import { bodyReader } from "./core/request-body.ts";
import { createSim } from "./core/sim.ts";
import { registerGemini } from "./gemini/register.ts";
import { openaiModelsRoute } from "./openai/models.ts";
import { registerOpenai } from "./openai/register.ts";
import { type ProviderSimOptions, resolveOptions } from "./options.ts";

/** Unknown paths answer in the error shape of the protocol their prefix belongs to. */
function notFound(path: string) {
  if (path.startsWith("/v1beta/"))
    return { error: { code: 404, message: `Not found: ${path}`, status: "NOT_FOUND" } };
  if (path.startsWith("/v1/messages")) {
    return { type: "error", error: { type: "not_found_error", message: `Not found: ${path}` } };
  }
  return {
    error: {
      message: `Invalid URL (${path})`,
      type: "invalid_request_error",
      param: null,
      code: null,
    },
  };
}

/** The simulator as a Hono app: serve it over HTTP, or call `app.fetch` in-process. */
export function createProviderSimApp(options: ProviderSimOptions = {}): Hono<SimEnv> {
  const resolved = resolveOptions(options);
  const sim = createSim(resolved);
  const app = new Hono<SimEnv>();
  app.use(bodyReader);
  if (resolved.recordMax > 0)
    app.use(recorder(resolved.requests, resolved.recordMax, resolved.now));
  registerOpenai(app, sim);
  registerAnthropic(app, sim);
  registerGemini(app, sim);
  const openaiModels = openaiModelsRoute(sim);
  const anthropicModels = anthropicModelsRoute(sim);
  // One path, two providers: Anthropic clients always send anthropic-version.
  app.get("/v1/models", (c, next) =>
    c.req.header("anthropic-version") ? anthropicModels(c, next) : openaiModels(c, next),
  );
  app.notFound((c) => c.json(notFound(c.req.path), 404));
  app.onError((error, c) => {
    console.error("provider-sim:", error);
    return c.json({ error: { message: `provider-sim internal error: ${error.message}` } }, 500);
  });
  return app;
}
