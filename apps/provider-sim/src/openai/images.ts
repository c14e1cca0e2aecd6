import type { Handler } from "hono";
import { parseDirectives } from "../core/directives.ts";
import type { SimEnv } from "../core/env.ts";
import { hexId } from "../core/hash.ts";
import { asNumber, asString, isObject } from "../core/json.ts";
import { respond } from "../core/respond.ts";
import type { Sim } from "../core/sim.ts";
import { countTokens } from "../core/tokens.ts";
import { pngForSeed } from "../media/png.ts";
import { openaiPreamble } from "./preamble.ts";

/** Output tokens reported per generated image (gpt-image style usage). */
export const IMAGE_OUTPUT_TOKENS = 272;
const MAX_IMAGES = 10;

/** Where `response_format: url` images are served; the name alone determines the bytes. */
export function imageUrl(origin: string, seed: string): string {
  return `${origin}/files/img_${hexId(seed, 32)}.png`;
}

/** DALL·E answers with URLs unless asked for base64; gpt-image models always return base64. */
function wantsUrl(model: string, format: string | undefined): boolean {
  return format === "url" || (model.startsWith("dall-e") && format !== "b64_json");
}

/** POST /v1/images/generations */
export function imagesRoute(sim: Sim): Handler<SimEnv> {
  return (c) => {
    const request = openaiPreamble(c, sim);
    if (request instanceof Response) return request;
    const { body, errors, headers } = request;
    const json = body.json;
    const prompt = isObject(json) ? asString(json.prompt) : undefined;
    if (!isObject(json) || !prompt) {
      return errors.response(400, { message: "Missing required parameter: 'prompt'." });
    }
    const model = asString(json.model) ?? "dall-e-2";
    const directives = parseDirectives(prompt);
    const n = Math.min(MAX_IMAGES, Math.max(1, asNumber(json.n) ?? 1));
    const origin = new URL(c.req.url).origin;

    return respond(c, sim, {
      errors,
      headers,
      faultDirective: directives.fault,
      faultKey: prompt,
      replay: directives.replay,
      produce: () => {
        const url = wantsUrl(model, asString(json.response_format));
        const data = Array.from({ length: n }, (_, i) => {
          const seed = `${body.seed}:${i}`;
          return url
            ? { url: imageUrl(origin, seed), revised_prompt: directives.text }
            : {
                b64_json: pngForSeed(`img_${hexId(seed, 32)}`).toString("base64"),
                revised_prompt: directives.text,
              };
        });
        const inputTokens = countTokens(prompt);
        const outputTokens = IMAGE_OUTPUT_TOKENS * n;
        return {
          kind: "json",
          body: {
            created: Math.floor(sim.options.now() / 1000),
            data,
            usage: {
              input_tokens: inputTokens,
              input_tokens_details: { text_tokens: inputTokens, image_tokens: 0 },
              output_tokens: outputTokens,
              total_tokens: inputTokens + outputTokens,
            },
          },
        };
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
