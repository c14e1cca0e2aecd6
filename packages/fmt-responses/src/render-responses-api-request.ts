import type { RenderOptions, Request } from "@interlingua/core-types";
import { renderInterlinguaResponsesRequest } from "./render-responses-request.js";
import { type InterlinguaResponsesRequestWire, isKnownResponsesTool } from "./responses-api.js";
import type { ResponsesFlatTool, ResponsesRequestWire } from "./responses-api-wire.js";

/**
 * Renders a canonical request as an OpenAI Responses API body: the spec's rendering with OpenAI's
 * spellings, so both codecs share one translation (and one set of warnings).
 */
export function renderResponsesRequest(
  request: Request,
  options: RenderOptions = {},
): ResponsesRequestWire {
  const warn = options.onWarning;
  // The flat tool's description is optional, so a missing one is not mapped to "".
  const spec = renderInterlinguaResponsesRequest(request, {
    onWarning: (w) => {
      if (w.feature !== "tools.description") warn?.(w);
    },
  });
  const described = request.tools
    .filter((tool) => tool.type === "function")
    .map((tool) => tool.description !== undefined);
  return toResponsesShape(spec, (i) => described[i] ?? true);
}

/**
 * The spec's body in OpenAI's shape: function tools flat (a description only where
 * `hasDescription(i)` says the i-th function tool has one), `max_tokens` as `max_output_tokens`,
 * and a single leading system text as `instructions` (several stay a leading `system` item, which
 * the API accepts too).
 */
export function toResponsesShape(
  spec: InterlinguaResponsesRequestWire,
  hasDescription: (functionIndex: number) => boolean,
): ResponsesRequestWire {
  const { max_tokens, tools, input, ...rest } = spec;
  const out: ResponsesRequestWire = { ...rest, input };
  if (max_tokens != null) out.max_output_tokens = max_tokens;
  if (tools != null) {
    let functionIndex = 0;
    out.tools = tools.map((tool): ResponsesFlatTool => {
      // Flat function tools and hosted tools are already in OpenAI's shape.
      if (!isKnownResponsesTool(tool) || tool.type !== "function" || tool.function == null) {
        return tool as ResponsesFlatTool;
      }
      const fn = tool.function;
      const flat: ResponsesFlatTool = { type: "function", name: fn.name };
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
    out.input = (input as unknown[]).slice(1) as ResponsesRequestWire["input"];
  }
  return out;
}
