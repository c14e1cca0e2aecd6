import type { Handler } from "hono";
import { parseDirectives } from "../core/directives.ts";
import type { SimEnv } from "../core/env.ts";
import { SSE } from "../core/framing.ts";
import { alnumId, keyFingerprint } from "../core/hash.ts";
import { asObject, asString, isObject } from "../core/json.ts";
import { planReply } from "../core/reply-plan.ts";
import { respond } from "../core/respond.ts";
import type { Sim } from "../core/sim.ts";
import { openaiApiKey } from "./auth.ts";
import { chatCompletion } from "./chat-response.ts";
import { chatStreamFrames } from "./chat-stream.ts";
import { readChatTurn } from "./chat-turn.ts";
import { openaiPreamble } from "./preamble.ts";
import { OPENAI_RETENTION_MS, prefixCacheUsage } from "./prefix-cache.ts";

/** POST /v1/chat/completions */
export function chatCompletionsRoute(sim: Sim): Handler<SimEnv> {
  return (c) => {
    const request = openaiPreamble(c, sim);
    if (request instanceof Response) return request;
    const { body, errors, headers } = request;
    const json = body.json;
    if (!isObject(json))
      return errors.response(400, { message: "The request body must be a JSON object." });
    const turn = readChatTurn(json);
    if (typeof turn === "string") return errors.response(400, { message: turn });
    const directives = parseDirectives(turn.userText);
    const scope = [
      "openai",
      keyFingerprint(openaiApiKey(c.req.raw.headers) ?? ""),
      turn.model,
      asString(json.prompt_cache_key) ?? "",
    ].join("\u0000");
    const retentionMs =
      OPENAI_RETENTION_MS[asString(json.prompt_cache_retention) ?? "in_memory"] ??
      OPENAI_RETENTION_MS.in_memory!;

    return respond(c, sim, {
      errors,
      headers,
      faultDirective: directives.fault,
      faultKey: turn.userText,
      replay: directives.replay,
      produce: () => {
        // Only an answered request reads or writes the cache (a fault above answers nothing).
        const cache = prefixCacheUsage(turn.segments, sim.promptCache, scope, retentionMs);
        const plan = planReply(turn, directives, body.seed, cache);
        const meta = {
          id: `chatcmpl-${alnumId(body.seed, 29)}`,
          created: Math.floor(sim.options.now() / 1000),
          model: turn.model,
        };
        if (json.stream !== true) return { kind: "json", body: chatCompletion(meta, plan) };
        const includeUsage = asObject(json.stream_options)?.include_usage === true;
        return { kind: "stream", frames: chatStreamFrames(meta, plan, includeUsage), framing: SSE };
      },
    });
  };
}
