import type { RenderOptions, Request } from "@interlingua/core-types";
import { renderResponsesRequest } from "./render-responses-request.js";
import { isKnownResponsesTool, type ResponsesRequestWire } from "./responses-api.js";
import type { ResponsesApiRequestWire, ResponsesApiTool } from "./responses-api-wire.js";

/**
 * Renders a canonical request as an OpenAI Responses API body: the spec's rendering with OpenAI's
 * spellings, so both codecs share one translation (and one set of warnings).
 */
export function renderResponsesApiRequest(
  request: Request,
  options: RenderOptions = {},
): ResponsesApiRequestWire {
  const warn = options.onWarning;
  // The flat tool's description is optional, so a missing one is not mapped to "".
  const spec = renderResponsesRequest(request, {
    onWarning: (w) => {
      if (w.feature !== "tools.description") warn?.(w);
    },
  });
  const described = request.tools
    .filter((tool) => tool.type === "function")
    .map((tool) => tool.description !== undefined);
  return toResponsesApiShape(spec, (i) => described[i] ?? true);
}

/**
 * The spec's body in OpenAI's shape: function tools flat (a description only where
 * `hasDescription(i)` says the i-th function tool has one), `max_tokens` as `max_output_tokens`,
 * and a single leading system text as `instructions` (several stay a leading `system` item, which
 * the API accepts too).
 */
export function toResponsesApiShape(
  spec: ResponsesRequestWire,
  hasDescription: (functionIndex: number) => boolean,
): ResponsesApiRequestWire {
  const { max_tokens, tools, input, ...rest } = spec;
  const out: ResponsesApiRequestWire = { ...rest, input };
  if (max_tokens != null) out.max_output_tokens = max_tokens;
  if (tools != null) {
    let functionIndex = 0;
    out.tools = tools.map((tool): ResponsesApiTool => {
      // Flat function tools and hosted tools are already in OpenAI's shape.
      if (!isKnownResponsesTool(tool) || tool.type !== "function" || tool.function == null) {
        return tool as ResponsesApiTool;
      }
      const fn = tool.function;
      const flat: ResponsesApiTool = { type: "function", name: fn.name };
      if (hasDescription(functionIndex++)) flat.description = fn.description;
      flat.parameters = fn.parameters ?? null;
      if (fn.strict != null) flat.strict = fn.strict;
      return flat;
    });
  }
  const first = Array.isArray(input) ? input[0] : undefined;
  if (
    first !== undefined &&
    first.type !== "function_call" &&
    first.type !== "function_call_output" &&
    first.type !== "reasoning" &&
    first.role === "system" &&
    Array.isArray(first.content) &&
    first.content.length === 1 &&
    first.content[0] !== undefined
  ) {
    out.instructions = first.content[0].text;
    out.input = (input as unknown[]).slice(1) as ResponsesApiRequestWire["input"];
  }
  return out;
}
