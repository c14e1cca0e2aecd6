import type { Request } from "@interlingua/core-types";

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Anthropic's structured output (`output_config.format: {type: "json_schema", schema}`) as the
 * canonical json-schema response format, so it reaches OpenAI (`response_format`) and Gemini
 * (`responseJsonSchema`) too. It leaves `output_config` in the extras; a format of another shape
 * stays there untouched (and is reported when the request leaves this format).
 */
export function parseOutputFormat(extras: Record<string, unknown>, request: Request): void {
  const config = extras["output_config"];
  if (!isObject(config)) return;
  const { format, ...rest } = config;
  if (!isObject(format) || format["type"] !== "json_schema") return;
  const schema = format["schema"];
  if (!isObject(schema) || Object.keys(format).some((k) => k !== "type" && k !== "schema")) return;
  request.responseFormat = { type: "json-schema", schema };
  if (Object.keys(rest).length > 0) extras["output_config"] = rest;
  else delete extras["output_config"];
}
