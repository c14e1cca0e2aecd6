import type { Handler } from "hono";
import { parseDirectives } from "../core/directives.ts";
import type { SimEnv } from "../core/env.ts";
import { SSE } from "../core/framing.ts";
import { alnumId } from "../core/hash.ts";
import { asObject } from "../core/json.ts";
import { planReply } from "../core/reply-plan.ts";
import { respond } from "../core/respond.ts";
import type { Sim } from "../core/sim.ts";
import { chatCompletion } from "./chat-response.ts";
import { chatStreamFrames } from "./chat-stream.ts";
import { readChatTurn, usesLegacyFunctions } from "./chat-turn.ts";
import { openaiCacheScope } from "./openai-cache-scope.ts";
import { prefixCacheUsage } from "./prefix-cache.ts";
import { openaiTurnPreamble } from "./turn-preamble.ts";

/** POST /v1/chat/completions */
export function chatCompletionsRoute(sim: Sim): Handler<SimEnv> {
  return (c) => {
    const request = openaiTurnPreamble(c, sim, readChatTurn);
    if (request instanceof Response) return request;
    const { body, errors, headers, json, turn } = request;
    const directives = parseDirectives(turn.userText);
    const { scope, retentionMs } = openaiCacheScope(c, json, turn.model);

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
        const legacy = usesLegacyFunctions(json);
        if (json.stream !== true) return { kind: "json", body: chatCompletion(meta, plan, legacy) };
        const includeUsage = asObject(json.stream_options)?.include_usage === true;
        return {
          kind: "stream",
          frames: chatStreamFrames(meta, plan, includeUsage, legacy),
          framing: SSE,
        };
      },
    });
  };
}
