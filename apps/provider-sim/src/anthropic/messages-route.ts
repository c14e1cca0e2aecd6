import type { Handler } from "hono";
import { parseDirectives } from "../core/directives.ts";
import type { SimEnv } from "../core/env.ts";
import { SSE } from "../core/framing.ts";
import { alnumId, keyFingerprint } from "../core/hash.ts";
import { isObject } from "../core/json.ts";
import { planReply } from "../core/reply-plan.ts";
import { respond } from "../core/respond.ts";
import type { Sim } from "../core/sim.ts";
import { breakpointCacheUsage, cacheControlError } from "./breakpoint-cache.ts";
import { message } from "./messages-response.ts";
import { messageStreamFrames } from "./messages-stream.ts";
import { readMessagesTurn } from "./messages-turn.ts";
import { anthropicPreamble } from "./preamble.ts";

/** POST /v1/messages */
export function messagesRoute(sim: Sim): Handler<SimEnv> {
  return (c) => {
    const request = anthropicPreamble(c, sim);
    if (request instanceof Response) return request;
    const { body, errors, headers } = request;
    const json = body.json;
    if (!isObject(json))
      return errors.response(400, { message: "The request body must be a JSON object." });
    const turn = readMessagesTurn(json);
    if (typeof turn === "string") return errors.response(400, { message: turn });
    const badCache = cacheControlError(turn.blocks);
    if (badCache) return errors.response(400, { message: badCache });
    const directives = parseDirectives(turn.userText);
    // Caches belong to the API key's organisation and to the model.
    const scope = `anthropic\u0000${keyFingerprint(c.req.header("x-api-key") ?? "")}\u0000${turn.model}`;

    return respond(c, sim, {
      errors,
      headers,
      faultDirective: directives.fault,
      faultKey: turn.userText,
      replay: directives.replay,
      produce: () => {
        // Only an answered request reads or writes the cache (a fault above answers nothing).
        const cache = breakpointCacheUsage(turn.blocks, sim.promptCache, scope);
        const plan = planReply(turn, directives, body.seed, cache);
        const meta = { id: `msg_${alnumId(body.seed, 24)}`, model: turn.model };
        if (json.stream === true)
          return { kind: "stream", frames: messageStreamFrames(meta, plan), framing: SSE };
        return { kind: "json", body: message(meta, plan) };
      },
    });
  };
}
