import type { Context, Hono } from "hono";
import { setBounded } from "../core/bounded-map.ts";
import type { SimEnv } from "../core/env.ts";
import { hexId } from "../core/hash.ts";
import type { Produced } from "../core/respond.ts";
import { respond } from "../core/respond.ts";
import type { Sim } from "../core/sim.ts";
import { geminiPreamble } from "./preamble.ts";
import {
  deliveredVideos,
  finishedBody,
  isDone,
  newOperation,
  type Operation,
  pendingBody,
} from "./veo-operation.ts";
import { parseVeoRequest } from "./veo-request.ts";
import type { VideoFiles } from "./video-files.ts";

// Veo on the Gemini API: `:predictLongRunning` starts an operation, `GET /v1beta/<operation name>`
// polls it. It answers `done: false` (with a simulator-only progressPercent) until it has been
// polled `pendingPolls` times and `pendingMs` have passed on the `now` clock, then `done: true`.

const MAX_OPERATIONS = 10_000;

export type VeoState = { operations: Map<string, Operation>; files: VideoFiles };

export type VeoRoutes = {
  /** POST …/models/{model}:predictLongRunning, dispatched by the generate route. */
  start(c: Context<SimEnv>, model: string): Response | Promise<Response>;
};

export function registerVeo(
  app: Hono<SimEnv>,
  sim: Sim,
  state: VeoState,
  version: string,
): VeoRoutes {
  const { operations, files } = state;

  app.get(`/${version}/models/:model/operations/:id`, (c) => {
    const request = geminiPreamble(c, sim);
    if (request instanceof Response) return request;
    const name = `models/${c.req.param("model")}/operations/${c.req.param("id")}`;
    return respond(c, sim, {
      errors: request.errors,
      faultDirective: undefined,
      faultKey: name,
      replay: undefined,
      produce: (): Produced => {
        const op = operations.get(name);
        if (!op) {
          return {
            kind: "error",
            status: 404,
            details: { message: `Operation ${name} not found.` },
          };
        }
        op.polls += 1;
        const now = sim.options.now();
        if (!isDone(op, now)) return { kind: "json", body: pendingBody(op, now) };
        for (const video of deliveredVideos(op)) files.add(video);
        return { kind: "json", body: finishedBody(op, request.url.origin, version) };
      },
    });
  });

  return {
    start(c, model) {
      const request = geminiPreamble(c, sim);
      if (request instanceof Response) return request;
      const job = parseVeoRequest(request.body.json, files);
      if ("error" in job) return request.errors.response(400, { message: job.error });
      return respond(c, sim, {
        errors: request.errors,
        faultDirective: job.directives.fault,
        faultKey: job.prompt,
        replay: job.directives.replay,
        produce: () => {
          const id = hexId(`${request.body.seed}:${sim.sequence()}`, 12);
          const name = `models/${model}/operations/${id}`;
          const op = newOperation(name, job, {
            now: sim.options.now(),
            pendingPolls: job.directives.polls ?? sim.options.veo.pendingPolls,
            pendingMs: sim.options.veo.pendingMs,
          });
          setBounded(operations, name, op, MAX_OPERATIONS);
          return { kind: "json", body: { name } };
        },
      });
    },
  };
}
