import type { Hono } from "hono";
import type { SimEnv } from "../core/env.ts";
import { respond } from "../core/respond.ts";
import type { Sim } from "../core/sim.ts";
import { mp4ForSeed } from "../media/mp4.ts";
import { geminiPreamble } from "./preamble.ts";

/** GET /v1beta/files/{id}:download?alt=media — generated video bytes; needs the API key, like the real API. */
export function registerFiles(app: Hono<SimEnv>, sim: Sim, version: string): void {
  app.get(`/${version}/files/:file`, (c) => {
    const request = geminiPreamble(c, sim);
    if (request instanceof Response) return request;
    const id = /^([0-9a-f]{16}):download$/.exec(c.req.param("file") ?? "")?.[1];
    return respond(c, sim, {
      errors: request.errors,
      faultDirective: undefined,
      faultKey: c.req.path,
      replay: undefined,
      produce: () =>
        id
          ? { kind: "bytes", bytes: new Uint8Array(mp4ForSeed(id)), contentType: "video/mp4" }
          : { kind: "error", status: 404, details: { message: "File not found." } },
    });
  });
}
