import {
  type AssistantPart,
  type IndexedOutput,
  type RenderOptions,
  type Response,
  setAsideMalformedUsage,
  type TokenLogprob,
  withOutputs,
} from "@interlingua/core-types";
import { GatewayError, malformedReplyFromZod } from "@interlingua/errors";
import { expandParallelWrapper } from "./expand-parallel-wrapper.js";
import { errorFromResponsesWire } from "./map-responses-error.js";
import {
  parseInterlinguaResponsesFinishReason,
  parseResponsesFinishReason,
} from "./map-responses-finish-reason.js";
import { parseInterlinguaResponsesUsage, parseResponsesUsage } from "./map-responses-usage.js";
import { normalizeArguments, thinkingFromReasoningItem } from "./parse-responses-request.js";
import {
  type InterlinguaResponsesResponseWire,
  interlinguaResponsesResultSchema,
} from "./responses-api.js";
import { parseUrlCitations } from "./responses-citations.js";
import { parseResponsesLogprobs } from "./responses-logprobs.js";
import {
  outputCustomToolCallSchema,
  outputFunctionCallSchema,
  outputMessageSchema,
  outputReasoningSchema,
  type ResponsesObject,
  responsesObjectSchema,
  responsesUsageSchema,
} from "./responses-stream-api.js";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Parses the `data` of a `POST /v1/responses` result (docs/api-reference.md "Responses-format result"). A real
 * OpenAI Responses object (with `output`) is accepted too, and an `{error}` body is thrown as the
 * error it stands for.
 */
export function parseInterlinguaResponsesResponse(
  wire: unknown,
  options?: RenderOptions,
): Response {
  if (isRecord(wire) && !Array.isArray(wire["choices"])) {
    if (Array.isArray(wire["output"])) return parseResponsesObject(wire);
    if (isRecord(wire["error"])) {
      const error = errorFromResponsesWire(wire);
      throw new GatewayError({ ...error });
    }
  }
  const parsed = interlinguaResponsesResultSchema.safeParse(wire);
  if (!parsed.success) throw malformedReplyFromZod(parsed.error, "response body");
  return responseFromResult(parsed.data, options);
}

/** Choice 0 is the primary output, later ones alternatives, none `noOutput` (`withOutputs`). */
function responseFromResult(
  w: InterlinguaResponsesResponseWire,
  options?: RenderOptions,
): Response {
  const base = {
    id: w.id,
    model: w.model,
    created: w.created,
    usage: parseInterlinguaResponsesUsage(w.usage),
  };
  return withOutputs(
    base,
    w.choices.map((choice): IndexedOutput => {
      const parts: AssistantPart[] = [];
      if (choice.message.content !== null)
        parts.push({ type: "text", text: choice.message.content });
      for (const call of choice.message.tool_calls ?? []) {
        parts.push({
          type: "tool-call",
          id: call.id,
          name: call.function.name,
          arguments: normalizeArguments(call.function.arguments),
        });
      }
      return {
        index: choice.index,
        message: { role: "assistant", parts },
        finishReason: parseInterlinguaResponsesFinishReason(choice.finish_reason),
      };
    }),
    options?.onWarning,
    (i) => `choices[${i}]`,
  );
}

/** A real Responses object: output items in order; hosted tool calls have no canonical part. */
export function parseResponsesObject(wire: unknown, options?: RenderOptions): Response {
  const parsed = responsesObjectSchema.safeParse(
    setAsideMalformedUsage(wire, "usage", responsesUsageSchema, options?.onWarning),
  );
  if (!parsed.success) throw malformedReplyFromZod(parsed.error, "response body");
  const w: ResponsesObject = parsed.data;
  const parts: AssistantPart[] = [];
  const logprobs: TokenLogprob[] = [];
  let madeFunctionCalls = false;
  w.output.forEach((item, i) => {
    const at = ["output", i];
    switch (item.type) {
      case "message": {
        const message = outputMessageSchema.safeParse(item);
        if (!message.success) throw malformedReplyFromZod(message.error, "response body", at);
        for (const content of message.data.content) {
          const text = content["type"] === "refusal" ? content["refusal"] : content["text"];
          if (typeof text !== "string") continue;
          // Every output_text's tokens, in order: the output's logprobs.
          logprobs.push(...parseResponsesLogprobs(content["logprobs"]));
          const citations = parseUrlCitations(content["annotations"]);
          parts.push(
            citations.length > 0 ? { type: "text", text, citations } : { type: "text", text },
          );
        }
        return;
      }
      case "function_call": {
        const call = outputFunctionCallSchema.safeParse(item);
        if (!call.success) throw malformedReplyFromZod(call.error, "response body", at);
        madeFunctionCalls = true;
        const { call_id, name, arguments: args, namespace } = call.data;
        const expanded = namespace == null ? expandParallelWrapper(call_id, name, args) : undefined;
        if (expanded) parts.push(...expanded);
        else {
          const part: AssistantPart = {
            type: "tool-call",
            id: call_id,
            name,
            arguments: normalizeArguments(args),
          };
          if (typeof namespace === "string" && namespace !== "") part.namespace = namespace;
          parts.push(part);
        }
        return;
      }
      case "custom_tool_call": {
        const call = outputCustomToolCallSchema.safeParse(item);
        if (!call.success) throw malformedReplyFromZod(call.error, "response body", at);
        madeFunctionCalls = true;
        const { call_id, name, input } = call.data;
        parts.push({ type: "tool-call", id: call_id, name, arguments: input, custom: true });
        return;
      }
      case "reasoning": {
        const reasoning = outputReasoningSchema.safeParse(item);
        if (!reasoning.success) throw malformedReplyFromZod(reasoning.error, "response body", at);
        parts.push(thinkingFromReasoningItem(reasoning.data));
        return;
      }
    }
  });
  const response: Response = {
    id: w.id,
    model: w.model,
    created: w.created_at,
    message: { role: "assistant", parts },
    finishReason: parseResponsesFinishReason(
      w.status,
      w.incomplete_details?.reason,
      madeFunctionCalls,
    ),
    usage: parseResponsesUsage(w.usage),
  };
  if (logprobs.length > 0) response.logprobs = { content: logprobs };
  return response;
}
