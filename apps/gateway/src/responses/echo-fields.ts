// OpenAI's Response object repeats the request's settings (its schema requires instructions,
// metadata, parallel_tool_calls, temperature, tool_choice, tools and top_p). The gateway answers
// with what the client sent, and OpenAI's defaults for what it left out.

const DEFAULTS: Readonly<Record<string, unknown>> = {
  instructions: null,
  max_output_tokens: null,
  max_tool_calls: null,
  metadata: {},
  parallel_tool_calls: true,
  reasoning: null,
  temperature: 1,
  text: { format: { type: "text" } },
  tool_choice: "auto",
  tools: [],
  top_logprobs: 0,
  top_p: 1,
  truncation: "disabled",
};

/** The request settings a Responses object echoes, from the client's body. */
export function echoFields(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, fallback] of Object.entries(DEFAULTS)) {
    const sent = body[field];
    out[field] = sent === undefined || sent === null ? fallback : sent;
  }
  if (Array.isArray(out["tools"])) out["tools"] = out["tools"].map(echoTool);
  return out;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A function tool as the object lists it: flat (OpenAI's FunctionTool), whichever shape the client
 * sent, since docs/api-reference.md takes the nested `{type, function: {...}}` one too; `strict`
 * and `parameters` are required there (null: not given). Other tool types are echoed as sent.
 */
function echoTool(tool: unknown): unknown {
  if (!isObject(tool) || tool["type"] !== "function") return tool;
  const { function: nested, ...flat } = tool;
  const fields = isObject(nested) ? { ...flat, ...nested } : tool;
  return { ...fields, parameters: fields["parameters"] ?? null, strict: fields["strict"] ?? null };
}
