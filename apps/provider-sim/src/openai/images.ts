import type { Handler } from "hono";
import { type Directives, parseDirectives } from "../core/directives.ts";
import type { SimEnv } from "../core/env.ts";
import { hexId } from "../core/hash.ts";
import type { ErrorDetails } from "../core/protocol-errors.ts";
import { type Produced, respond } from "../core/respond.ts";
import type { Sim } from "../core/sim.ts";
import { countTokens } from "../core/tokens.ts";
import { pngForSeed } from "../media/png.ts";
import { type ImageJob, imageOutputTokens, parseImageRequest } from "./images-request.ts";
import { openaiPreamble } from "./preamble.ts";

// POST /v1/images/generations. GPT image models answer base64 PNGs with the resolved size,
// quality and background and token usage; DALL-E models answer URLs (or base64 when asked) with
// a revised prompt (DALL-E 3). `[[fail]]` is a 500 server error, `[[safety]]` the moderation
// refusal each family answers.

/** Output tokens of one low-quality square image (gpt-image-1's smallest). */
export const IMAGE_OUTPUT_TOKENS = 272;

/** Where `response_format: url` images are served; the name alone determines the bytes. */
export function imageUrl(origin: string, seed: string): string {
  return `${origin}/files/img_${hexId(seed, 32)}.png`;
}

/** The refusal OpenAI answers: GPT image models `moderation_blocked`, DALL-E `content_policy_violation`. */
export function refusal(job: ImageJob, requestId: string): ErrorDetails {
  return job.family === "gpt-image"
    ? {
        message: `Your request was rejected by the safety system. If you believe this is an error, contact us at help.openai.com and include the request ID ${requestId}.`,
        type: "image_generation_user_error",
        reason: "moderation_blocked",
      }
    : {
        message:
          "Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.",
        type: "invalid_request_error",
        reason: "content_policy_violation",
      };
}

function imagesBody(job: ImageJob, d: Directives, seed: string, origin: string, created: number) {
  const data = Array.from({ length: job.n }, (_, i) => {
    const name = `img_${hexId(`${seed}:${i}`, 32)}`;
    const image = job.url
      ? { url: imageUrl(origin, `${seed}:${i}`) }
      : { b64_json: pngForSeed(name).toString("base64") };
    return job.family === "dall-e-3" ? { ...image, revised_prompt: d.text } : image;
  });
  if (job.family !== "gpt-image") return { created, data };
  const inputTokens = countTokens(job.prompt);
  const outputTokens = imageOutputTokens(job.quality, job.size) * job.n;
  return {
    created,
    background: job.background,
    data,
    output_format: "png",
    quality: job.quality,
    size: job.size,
    usage: {
      input_tokens: inputTokens,
      input_tokens_details: { image_tokens: 0, text_tokens: inputTokens },
      output_tokens: outputTokens,
      total_tokens: inputTokens + outputTokens,
    },
  };
}

/** POST /v1/images/generations */
export function imagesRoute(sim: Sim): Handler<SimEnv> {
  return (c) => {
    const request = openaiPreamble(c, sim);
    if (request instanceof Response) return request;
    const { body, errors, headers } = request;
    const job = parseImageRequest(body.json);
    if ("error" in job) return errors.response(400, job.error);
    const directives = parseDirectives(job.prompt);
    const origin = new URL(c.req.url).origin;

    return respond(c, sim, {
      errors,
      headers,
      faultDirective: directives.fault,
      faultKey: job.prompt,
      replay: directives.replay,
      produce: (): Produced => {
        if (directives.fail) return { kind: "error", status: 500 };
        if (directives.safety !== undefined) {
          return {
            kind: "error",
            status: 400,
            details: refusal(job, headers["x-request-id"] ?? ""),
          };
        }
        const created = Math.floor(sim.options.now() / 1000);
        return { kind: "json", body: imagesBody(job, directives, body.seed, origin, created) };
      },
    });
  };
}

/** GET /files/:name — the bytes behind image URLs; public, like the providers' signed blob URLs. */
export const imageFileRoute: Handler<SimEnv> = (c) => {
  const name = c.req.param("name") ?? "";
  const match = /^(img_[0-9a-f]{32})\.png$/.exec(name);
  if (!match)
    return c.json({ error: { message: "No such file.", type: "invalid_request_error" } }, 404);
  return c.body(new Uint8Array(pngForSeed(match[1]!)), 200, { "content-type": "image/png" });
};
