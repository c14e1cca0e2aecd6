import type { Hono } from "hono";
import type { SimEnv } from "../core/env.ts";
import { respond } from "../core/respond.ts";
import type { Sim } from "../core/sim.ts";
import { mp4Video } from "../media/mp4.ts";
import { geminiPreamble } from "./preamble.ts";
import { frameSize, type VideoFiles } from "./video-files.ts";

/**
 * GET /v1beta/files/{id}:download?alt=media — the bytes of a video a Veo operation delivered (an
 * MP4 of its length and size); needs the API key, like the real API. Other ids are a 404.
 */
export function registerFiles(
  app: Hono<SimEnv>,
  sim: Sim,
  files: VideoFiles,
  version: string,
): void {
  app.get(`/${version}/files/:file`, (c) => {
    const request = geminiPreamble(c, sim);
    if (request instanceof Response) return request;
    const id = /^([0-9a-f]{16}):download$/.exec(c.req.param("file") ?? "")?.[1];
    const file = id === undefined ? undefined : files.get(id);
    return respond(c, sim, {
      errors: request.errors,
      faultDirective: undefined,
      faultKey: c.req.path,
      replay: undefined,
      produce: () =>
        file
          ? {
              kind: "bytes",
              bytes: new Uint8Array(
                mp4Video({
                  ...frameSize(file),
                  seconds: file.seconds,
                  seed: file.id,
                  audio: file.audio,
                }),
              ),
              contentType: "video/mp4",
            }
          : { kind: "error", status: 404, details: { message: "File not found." } },
    });
  });
}
