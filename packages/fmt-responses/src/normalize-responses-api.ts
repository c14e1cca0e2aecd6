import { invalidFromZod } from "@interlingua/errors";
import { normalizeInterlinguaResponsesRequest } from "./normalize-responses-request.js";
import { joinSummaries, normalizeArguments } from "./parse-responses-request.js";
import { toResponsesShape } from "./render-responses-api-request.js";
import { interlinguaResponsesRequestSchema } from "./responses-api.js";
import {
  type ResponsesRequestWire,
  type ResponsesResponseWire,
  responsesResponseSchema,
} from "./responses-api-wire.js";
import { parseResponsesLogprobs, renderResponsesLogprobs } from "./responses-logprobs.js";

/**
 * Law 1's normal form for `responses` requests: the spec shape's normal form
 * (`normalizeInterlinguaResponsesRequest`) in OpenAI's shape — flat function tools (no
 * description where a flat tool had none), `max_output_tokens`, one leading system text as
 * `instructions`.
 */
export function normalizeResponsesRequest(wire: unknown): ResponsesRequestWire {
  const parsed = interlinguaResponsesRequestSchema.safeParse(wire);
  if (!parsed.success) throw invalidFromZod(parsed.error);
  const described = (parsed.data.tools ?? [])
    .filter((tool) => tool.type === "function")
    .map((tool) => tool.function !== undefined || typeof tool.description === "string");
  return toResponsesShape(normalizeInterlinguaResponsesRequest(wire), (i) => described[i] ?? true);
}

type Json = Record<string, unknown>;
type Item = Json & { type: string };
const prefix: Record<string, string> = { message: "msg", reasoning: "rs", function_call: "fc" };

/**
 * Law 1's normal form for `responses` results (message, reasoning and function_call items):
 * - one message item per output_text part (refusals read as text), empty messages gone;
 * - item ids are `msg_|rs_|fc_<response id without resp_>_<output index>`, `status: "completed"`,
 *   text parts have `annotations: []`, fields OpenAI adds beyond these are gone;
 * - every output_text's logprobs, in order, are on the first text part (`bytes` [] when absent,
 *   `top_logprobs` [] when absent), the other text parts have `logprobs: []`;
 * - reasoning summaries are one `summary_text` (joined by a blank line), a null encrypted_content
 *   is absent; call arguments "" are "{}"; other item types are gone;
 * - status is `completed`, or `incomplete` with a max_output_tokens / content_filter reason;
 *   `error: null`; usage (zeros when absent) has both details and `total_tokens` = input + output; `output_text`.
 */
export function normalizeResponsesResponse(wire: unknown): ResponsesResponseWire {
  const parsed = responsesResponseSchema.safeParse(wire);
  if (!parsed.success) throw invalidFromZod(parsed.error);
  const w = parsed.data;
  const stem = w.id.startsWith("resp_") ? w.id.slice(5) : w.id;
  const output: Item[] = [];
  const add = (item: Item) => {
    const type = item.type;
    const at = output.length;
    output.push({
      ...item,
      id: stem === "" ? `${prefix[type]}_${at}` : `${prefix[type]}_${stem}_${at}`,
    });
  };
  const texts: string[] = [];
  // Every output_text's tokens, in order, go on the first output_text (render writes them there).
  const tokens = w.output.flatMap((item) =>
    item.type === "message" && Array.isArray(item["content"])
      ? (item["content"] as Json[]).flatMap((part) => parseResponsesLogprobs(part["logprobs"]))
      : [],
  );
  let first = true;
  for (const item of w.output) {
    if (item.type === "message" && Array.isArray(item["content"])) {
      for (const part of item["content"] as Json[]) {
        const text = part["type"] === "refusal" ? part["refusal"] : part["text"];
        if (typeof text !== "string") continue;
        texts.push(text);
        const logprobs = first ? renderResponsesLogprobs(tokens) : [];
        first = false;
        add({
          type: "message",
          status: "completed",
          role: "assistant",
          content: [{ type: "output_text", annotations: [], logprobs, text }],
        });
      }
    } else if (item.type === "reasoning") {
      const text = joinSummaries((item["summary"] ?? []) as { text: string }[]);
      const out: Item = {
        type: "reasoning",
        summary: text === "" ? [] : [{ type: "summary_text", text }],
      };
      if (typeof item["encrypted_content"] === "string") {
        out["encrypted_content"] = item["encrypted_content"];
      }
      add(out);
    } else if (item.type === "function_call") {
      add({
        type: "function_call",
        status: "completed",
        arguments: normalizeArguments(item["arguments"] as string),
        call_id: item["call_id"],
        name: item["name"],
      });
    }
  }
  const reason = w.incomplete_details?.reason;
  const incomplete =
    w.status === "incomplete" && (reason === "max_output_tokens" || reason === "content_filter");
  // A response without usage reads as zero usage, which is rendered.
  const usage = w.usage ?? {
    input_tokens: 0,
    output_tokens: 0,
    total_tokens: 0,
  };
  return {
    id: w.id,
    object: "response",
    created_at: w.created_at,
    status: incomplete ? "incomplete" : "completed",
    error: null,
    incomplete_details: incomplete ? { reason } : null,
    model: w.model,
    output,
    usage: {
      input_tokens: usage.input_tokens,
      input_tokens_details: {
        cached_tokens: usage.input_tokens_details?.cached_tokens ?? 0,
        cache_write_tokens: usage.input_tokens_details?.cache_write_tokens ?? 0,
      },
      output_tokens: usage.output_tokens,
      output_tokens_details: {
        reasoning_tokens: usage.output_tokens_details?.reasoning_tokens ?? 0,
      },
      total_tokens: usage.input_tokens + usage.output_tokens,
    },
    output_text: texts.join(""),
  };
}
