import { invalidFromZod } from "@interlingua/errors";
import { isResultFinishReason } from "./map-responses-finish-reason.js";
import {
  type InterlinguaResponsesResponseWire,
  interlinguaResponsesResultSchema,
  type ResponsesResultChoice,
} from "./responses-api.js";

/**
 * The normal form law 1 compares against for results: `render(parse(w))` equals
 * `normalizeInterlinguaResponsesResponse(w)`. What it normalises, and nothing else:
 * - fields the spec does not show are gone (top level, choice, message, tool call, usage);
 * - `tool_calls: []` is absent, and a call's `arguments` "" is "{}";
 * - a `finish_reason` outside stop, length, content_filter and tool_calls (or null) is `stop`;
 * - `total_tokens` is prompt_tokens + completion_tokens.
 */
export function normalizeInterlinguaResponsesResponse(
  wire: unknown,
): InterlinguaResponsesResponseWire {
  const parsed = interlinguaResponsesResultSchema.safeParse(wire);
  if (!parsed.success) throw invalidFromZod(parsed.error, "response body");
  const w = parsed.data;
  return {
    id: w.id,
    object: "response",
    created: w.created,
    model: w.model,
    choices: w.choices.map((choice): ResponsesResultChoice => {
      const message: ResponsesResultChoice["message"] = {
        role: "assistant",
        content: choice.message.content,
      };
      const calls = choice.message.tool_calls ?? [];
      if (calls.length > 0) {
        message.tool_calls = calls.map((call) => ({
          id: call.id,
          type: "function",
          function: {
            name: call.function.name,
            arguments: call.function.arguments === "" ? "{}" : call.function.arguments,
          },
        }));
      }
      const raw = choice.finish_reason;
      return {
        index: choice.index,
        message,
        finish_reason: raw !== null && isResultFinishReason(raw) ? raw : "stop",
      };
    }),
    usage: {
      prompt_tokens: w.usage.prompt_tokens,
      completion_tokens: w.usage.completion_tokens,
      total_tokens: w.usage.prompt_tokens + w.usage.completion_tokens,
    },
  };
}
