import type { Handler } from "hono";
import { parseDirectives } from "../core/directives.ts";
import type { SimEnv } from "../core/env.ts";
import { SSE } from "../core/framing.ts";
import { alnumId } from "../core/hash.ts";
import type { ProtocolErrors } from "../core/protocol-errors.ts";
import { planReply } from "../core/reply-plan.ts";
import { respond } from "../core/respond.ts";
import type { Sim } from "../core/sim.ts";
import { openaiCacheScope } from "./openai-cache-scope.ts";
import { prefixCacheUsage } from "./prefix-cache.ts";
import { unverifiedReasoning } from "./responses-reasoning.ts";
import { responsesStreamFrames } from "./responses-stream.ts";
import { readResponsesTurn } from "./responses-turn.ts";
import { responsesResult } from "./responses-wire.ts";
import { openaiTurnPreamble } from "./turn-preamble.ts";

/** POST /v1/responses: OpenAI's Responses API, stateless (no stored responses to refer to). */
export function responsesRoute(sim: Sim): Handler<SimEnv> {
  return (c) => {
    const request = openaiTurnPreamble(c, sim, readResponsesTurn, inStreamAsEvent);
    if (request instanceof Response) return request;
    const { body, errors, headers, json, turn } = request;
    if (json.previous_response_id != null) {
      return errors.response(400, {
        message: `Previous response with id '${String(json.previous_response_id)}' not found.`,
        param: "previous_response_id",
        reason: "previous_response_not_found",
      });
    }
    const unverified = unverifiedReasoning(turn.items);
    if (unverified !== undefined) {
      return errors.response(400, {
        message: unverified,
        param: "input",
        reason: "invalid_encrypted_content",
      });
    }
    const directives = parseDirectives(turn.userText);
    const { scope, retentionMs } = openaiCacheScope(c, json, turn.model);

    return respond(c, sim, {
      errors,
      headers,
      faultDirective: directives.fault,
      faultKey: turn.userText,
      replay: directives.replay,
      produce: () => {
        const cache = prefixCacheUsage(turn.segments, sim.promptCache, scope, retentionMs);
        const plan = planReply(turn, directives, body.seed, cache);
        const meta = {
          id: `resp_${alnumId(body.seed, 48)}`,
          createdAt: Math.floor(sim.options.now() / 1000),
          model: turn.model,
          seed: body.seed,
        };
        if (json.stream !== true) {
          return { kind: "json", body: responsesResult(meta, json, turn, plan) };
        }
        return {
          kind: "stream",
          frames: responsesStreamFrames(meta, json, turn, plan),
          framing: SSE,
        };
      },
    });
  };
}

/**
 * OpenAI's errors, with the in-stream one as the Responses API sends it (see the recording
 * openai-error.1): an `error` event whose `error` holds the usual fields.
 */
function inStreamAsEvent(errors: ProtocolErrors): ProtocolErrors {
  return {
    ...errors,
    streamFrame: (status) => {
      const { error } = JSON.parse(errors.streamFrame(status).data) as { error: object };
      return { event: "error", data: JSON.stringify({ type: "error", error }) };
    },
  };
}
