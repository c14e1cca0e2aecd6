import type { Hono } from "hono";
import type { SimEnv } from "../core/env.ts";
import type { Sim } from "../core/sim.ts";
import { createCacheStore } from "./cache-store.ts";
import { registerCachedContents } from "./cached-contents.ts";
import { registerFiles } from "./files.ts";
import { registerGenerate } from "./generate-route.ts";
import { registerVeo, type VeoState } from "./veo.ts";
import { createVideoFiles } from "./video-files.ts";

/** Gemini answers under /v1beta and /v1; both share one cache store, one set of Veo operations and files. */
export function registerGemini(app: Hono<SimEnv>, sim: Sim): void {
  const caches = createCacheStore(sim.options.now);
  const veoState: VeoState = { operations: new Map(), files: createVideoFiles() };
  for (const version of ["v1beta", "v1"]) {
    const veo = registerVeo(app, sim, veoState, version);
    registerCachedContents(app, sim, caches, version);
    registerFiles(app, sim, veoState.files, version);
    registerGenerate(app, sim, caches, veo, version);
  }
}
