import type { ProtocolTokenCount } from "@interlingua/core-types";

/**
 * What OpenAI's `input_tokens` endpoint takes of a Responses request: the prompt and what shapes
 * it. The rest (`store`, `stream`, `max_output_tokens`, sampling, `include`) it does not accept.
 */
const COUNT_FIELDS = [
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
] as const;

const isCount = (value: unknown): value is number =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

/** OpenAI's `POST /v1/responses/input_tokens`: answered `{object: "response.input_tokens", input_tokens}`. */
export const responsesTokenCount: ProtocolTokenCount = {
  path: () => "/v1/responses/input_tokens",
  generation: (count) => count,
  request: (generation, model) => {
    const out: Record<string, unknown> = {};
    for (const key of COUNT_FIELDS) {
      if (generation[key] !== undefined) out[key] = generation[key];
    }
    out["model"] = model;
    return out;
  },
  read: (reply) => {
    const tokens = (reply as { input_tokens?: unknown } | null)?.input_tokens;
    return typeof reply === "object" && isCount(tokens) ? tokens : undefined;
  },
  reply: (tokens) => ({ object: "response.input_tokens", input_tokens: tokens }),
  modelOptional: true,
};
