import type { Context, Hono } from "hono";
import { setBounded } from "../core/bounded-map.ts";
import { parseDirectives } from "../core/directives.ts";
import type { SimEnv } from "../core/env.ts";
import { hexId } from "../core/hash.ts";
import { asArray, asNumber, asObject, asString, type JsonObject } from "../core/json.ts";
import type { Produced } from "../core/respond.ts";
import { respond } from "../core/respond.ts";
import type { Sim } from "../core/sim.ts";
import { geminiPreamble } from "./preamble.ts";

// Veo on the Gemini API: `:predictLongRunning` starts an operation, `GET /v1beta/<operation name>`
// polls it. It answers `done: false` until it has been polled `pendingPolls` times and `pendingMs`
// have passed, then `done: true` with the video URIs (or an error, for `[[fail]]`).

type Operation = {
  name: string;
  createdAt: number;
  polls: number;
  pendingPolls: number;
  pendingMs: number;
  samples: number;
  fail: boolean;
};

const MAX_OPERATIONS = 10_000;
const MAX_SAMPLES = 4;
const RESPONSE_TYPE =
  "type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse";

export function videoFileId(operation: string, index: number): string {
  return hexId(`${operation}:${index}`, 16);
}

function finished(op: Operation, origin: string, version: string) {
  if (op.fail) {
    return {
      name: op.name,
      done: true,
      error: { code: 13, message: "Video generation failed (simulated)." },
    };
  }
  const generatedSamples = Array.from({ length: op.samples }, (_, i) => ({
    video: { uri: `${origin}/${version}/files/${videoFileId(op.name, i)}:download?alt=media` },
  }));
  return {
    name: op.name,
    done: true,
    response: { "@type": RESPONSE_TYPE, generateVideoResponse: { generatedSamples } },
  };
}

export type VeoRoutes = {
  /** POST …/models/{model}:predictLongRunning, dispatched by the generate route. */
  start(c: Context<SimEnv>, model: string): Response | Promise<Response>;
};

export function registerVeo(app: Hono<SimEnv>, sim: Sim, version: string): VeoRoutes {
  const operations = new Map<string, Operation>();

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
        if (!op)
          return {
            kind: "error",
            status: 404,
            details: { message: `Operation ${name} not found.` },
          };
        op.polls += 1;
        const done = op.polls > op.pendingPolls && sim.options.now() - op.createdAt >= op.pendingMs;
        return {
          kind: "json",
          body: done ? finished(op, request.url.origin, version) : { name, done: false },
        };
      },
    });
  });

  return {
    start(c, model) {
      const request = geminiPreamble(c, sim);
      if (request instanceof Response) return request;
      const body = asObject(request.body.json) ?? {};
      const instance = asObject(asArray(body.instances)[0]);
      const prompt = asString(instance?.prompt);
      if (prompt === undefined) {
        return request.errors.response(400, { message: "instances[0].prompt is required." });
      }
      const directives = parseDirectives(prompt);
      const parameters: JsonObject = asObject(body.parameters) ?? {};
      return respond(c, sim, {
        errors: request.errors,
        faultDirective: directives.fault,
        faultKey: prompt,
        replay: directives.replay,
        produce: () => {
          const name = `models/${model}/operations/${hexId(`${request.body.seed}:${sim.sequence()}`, 12)}`;
          const samples =
            asNumber(parameters.sampleCount) ?? asNumber(parameters.numberOfVideos) ?? 1;
          setBounded(
            operations,
            name,
            {
              name,
              createdAt: sim.options.now(),
              polls: 0,
              pendingPolls: directives.polls ?? sim.options.veo.pendingPolls,
              pendingMs: sim.options.veo.pendingMs,
              samples: Math.min(MAX_SAMPLES, Math.max(1, samples)),
              fail: directives.fail,
            },
            MAX_OPERATIONS,
          );
          return { kind: "json", body: { name } };
        },
      });
    },
  };
}
