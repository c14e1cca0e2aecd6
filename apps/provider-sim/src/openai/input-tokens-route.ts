import type { Handler } from "hono";
import { parseDirectives } from "../core/directives.ts";
import type { SimEnv } from "../core/env.ts";
import { respond } from "../core/respond.ts";
import type { Sim } from "../core/sim.ts";
import { promptTokens } from "../core/tokens.ts";
import { readResponsesTurn } from "./responses-turn.ts";
import { openaiTurnPreamble } from "./turn-preamble.ts";

/** What OpenAI's input token count takes; any other parameter is refused, as OpenAI does. */
const COUNT_PARAMETERS = new Set([
  "model",
  "input",
  "instructions",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "reasoning",
  "text",
  "truncation",
  "conversation",
  "previous_response_id",
]);

const DEFAULT_MODEL = "gpt-4o";

/**
 * POST /v1/responses/input_tokens: a Responses request's prompt as `/v1/responses` counts it in
 * usage, answered `{object: "response.input_tokens", input_tokens}`. Faults apply as there.
 */
export function inputTokensRoute(sim: Sim): Handler<SimEnv> {
  return (c) => {
    const request = openaiTurnPreamble(c, sim, (json) => {
      const unknown = Object.keys(json).find((key) => !COUNT_PARAMETERS.has(key));
      if (unknown !== undefined) return `Unknown parameter: '${unknown}'.`;
      // The model is optional here: OpenAI then counts for a default one.
      return readResponsesTurn({ model: DEFAULT_MODEL, ...json });
    });
    if (request instanceof Response) return request;
    const { errors, headers, turn } = request;
    const directives = parseDirectives(turn.userText);
    return respond(c, sim, {
      errors,
      headers,
      faultDirective: directives.fault,
      faultKey: turn.userText,
      replay: undefined,
      produce: () => ({
        kind: "json",
        body: {
          object: "response.input_tokens",
          input_tokens: promptTokens(turn.promptChars, turn.mediaParts),
        },
      }),
    });
  };
}
