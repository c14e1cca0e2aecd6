import type { Context, Hono } from "hono";
import { parseDirectives } from "../core/directives.ts";
import type { SimEnv } from "../core/env.ts";
import { JSON_ARRAY, SSE_CRLF } from "../core/framing.ts";
import { alnumId } from "../core/hash.ts";
import { asString, field, isObject, type JsonObject } from "../core/json.ts";
import type { ProtocolErrors } from "../core/protocol-errors.ts";
import { planReply } from "../core/reply-plan.ts";
import { respond } from "../core/respond.ts";
import type { Sim } from "../core/sim.ts";
import type { CacheStore } from "./cache-store.ts";
import { generateContentResponse } from "./generate-response.ts";
import { generateStreamFrames } from "./generate-stream.ts";
import { contentTokens, readGenerateTurn } from "./generate-turn.ts";
import { blockedResponse, outputModalities, withoutText } from "./image-output.ts";
import { unknownFieldError } from "./known-fields.ts";
import { geminiPreamble } from "./preamble.ts";
import type { VeoRoutes } from "./veo.ts";

// POST /{version}/models/{model}:{method}: generateContent, streamGenerateContent, countTokens,
// and predictLongRunning (handed to Veo).

type Method = "generateContent" | "streamGenerateContent" | "countTokens";

function generate(sim: Sim, caches: CacheStore, c: Context<SimEnv>, model: string, method: Method) {
  const request = geminiPreamble(c, sim);
  if (request instanceof Response) return request;
  const { body, errors, url } = request;
  const json = body.json;
  if (!isObject(json)) return errors.response(400, { message: "Invalid JSON payload received." });
  if (method === "countTokens") return countTokens(c, json, errors);
  const unknownField = unknownFieldError(json, true);
  if (unknownField) return errors.response(400, { message: unknownField });

  const cacheName = asString(field(json, "cachedContent", "cached_content"));
  const cache = cacheName === undefined ? undefined : caches.get(cacheName);
  if (cacheName !== undefined && !cache) {
    return errors.response(403, {
      message: `CachedContent not found (or permission denied): ${cacheName}`,
    });
  }
  const turn = readGenerateTurn(model, json, cache?.tokens ?? 0);
  if (typeof turn === "string") return errors.response(400, { message: turn });
  const modalities = outputModalities(model, json);
  if (typeof modalities === "string") return errors.response(400, { message: modalities });
  const directives = parseDirectives(turn.userText);

  return respond(c, sim, {
    errors,
    faultDirective: directives.fault,
    faultKey: turn.userText,
    replay: directives.replay,
    produce: () => {
      const planned = planReply(turn, directives, body.seed);
      const plan = modalities.text ? planned : withoutText(planned);
      const meta = {
        model,
        responseId: alnumId(body.seed, 23),
        image: modalities.image,
        imageSeed: `${model}:${directives.text}`,
        ...logprobsAsked(json),
      };
      const framing = url.searchParams.get("alt") === "sse" ? SSE_CRLF : JSON_ARRAY;
      if (directives.safety !== undefined) {
        const blocked = blockedResponse(meta, plan, directives.safety);
        if (method === "generateContent") return { kind: "json", body: blocked };
        return { kind: "stream", frames: [{ data: JSON.stringify(blocked) }], framing };
      }
      if (method === "generateContent")
        return { kind: "json", body: generateContentResponse(meta, plan) };
      return { kind: "stream", frames: generateStreamFrames(meta, plan), framing };
    },
  });
}

/**
 * countTokens: `{contents}`, or a whole request as `{generateContentRequest}` (system instruction,
 * tools and all), answered `{totalTokens}` as generateContent counts the prompt.
 */
function countTokens(c: Context<SimEnv>, json: JsonObject, errors: ProtocolErrors) {
  const unknown = Object.keys(json).find((key) => !COUNT_FIELDS.has(key));
  if (unknown !== undefined) {
    return errors.response(400, {
      message: `Invalid JSON payload received. Unknown name "${unknown}": Cannot find field.`,
    });
  }
  const wrapped = field(json, "generateContentRequest", "generate_content_request");
  const request = isObject(wrapped) ? wrapped : json;
  const unknownField = unknownFieldError(request, isObject(wrapped));
  if (unknownField) return errors.response(400, { message: unknownField });
  return c.json({ totalTokens: contentTokens(request) });
}

const COUNT_FIELDS = new Set(["contents", "generateContentRequest", "generate_content_request"]);

/** `generationConfig.responseLogprobs` (and `logprobs`, the alternatives per step). */
function logprobsAsked(json: JsonObject): { logprobs?: { top: number } } {
  const config = field(json, "generationConfig", "generation_config");
  if (!isObject(config) || field(config, "responseLogprobs", "response_logprobs") !== true) {
    return {};
  }
  const top = config["logprobs"];
  return { logprobs: { top: typeof top === "number" && Number.isInteger(top) ? top : 0 } };
}

export function registerGenerate(
  app: Hono<SimEnv>,
  sim: Sim,
  caches: CacheStore,
  veo: VeoRoutes,
  version: string,
) {
  app.post(`/${version}/models/:target`, (c) => {
    const target = c.req.param("target") ?? "";
    const colon = target.lastIndexOf(":");
    const model = target.slice(0, colon);
    const method = target.slice(colon + 1);
    if (colon > 0 && method === "predictLongRunning") return veo.start(c, model);
    if (
      colon > 0 &&
      (method === "generateContent" ||
        method === "streamGenerateContent" ||
        method === "countTokens")
    ) {
      return generate(sim, caches, c, model, method);
    }
    return c.json(
      { error: { code: 404, message: `Method not found: ${target}`, status: "NOT_FOUND" } },
      404,
    );
  });
}
