import type { Handler } from "hono";
import { parseDirectives } from "../core/directives.ts";
import type { SimEnv } from "../core/env.ts";
import { isObject } from "../core/json.ts";
import { respond } from "../core/respond.ts";
import type { Sim } from "../core/sim.ts";
import { promptTokens } from "../core/tokens.ts";
import { readMessagesTurn } from "./messages-turn.ts";
import { anthropicPreamble } from "./preamble.ts";

/** Generation settings Anthropic's count refuses ("Extra inputs are not permitted"). */
const NOT_COUNTED = ["max_tokens", "stream", "temperature", "top_p", "top_k", "stop_sequences"];

/**
 * POST /v1/messages/count_tokens: a Messages request without `max_tokens`, answered
 * `{input_tokens}`, the prompt as `/v1/messages` counts it in usage. Faults apply as there.
 */
export function countTokensRoute(sim: Sim): Handler<SimEnv> {
  return (c) => {
    const request = anthropicPreamble(c, sim);
    if (request instanceof Response) return request;
    const { body, errors, headers } = request;
    const json = body.json;
    if (!isObject(json))
      return errors.response(400, { message: "The request body must be a JSON object." });
    const extra = NOT_COUNTED.find((key) => key in json);
    if (extra !== undefined)
      return errors.response(400, { message: `${extra}: Extra inputs are not permitted` });
    const turn = readMessagesTurn({ ...json, max_tokens: 1 });
    if (typeof turn === "string") return errors.response(400, { message: turn });
    const directives = parseDirectives(turn.userText);
    return respond(c, sim, {
      errors,
      headers,
      faultDirective: directives.fault,
      faultKey: turn.userText,
      replay: undefined,
      produce: () => ({
        kind: "json",
        body: { input_tokens: promptTokens(turn.promptChars, turn.mediaParts) },
      }),
    });
  };
}
