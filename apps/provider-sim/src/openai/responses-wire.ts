import { hexId } from "../core/hash.ts";
import { asObject, type JsonObject } from "../core/json.ts";
import type { PlannedToolCall, PlannedUsage, ReplyPlan } from "../core/reply-plan.ts";
import type { ToolSpec } from "../core/turn.ts";
import { sealReasoning } from "./responses-reasoning.ts";
import type { ResponsesTurn } from "./responses-turn.ts";

// The Responses API objects shared by the whole reply and its stream: output items in the order
// the model produced them (reasoning, then the message or the function calls), the response
// object around them, and usage.

export type ResponseMeta = { id: string; createdAt: number; model: string; seed: string };

type OutputItem = JsonObject & { type: string; id: string };

/** input_tokens include cached ones; output_tokens include reasoning ones. */
export function responsesUsage(usage: PlannedUsage) {
  const output = usage.outputTokens + usage.thinkingTokens;
  return {
    input_tokens: usage.promptTokens,
    input_tokens_details: { cached_tokens: usage.cacheReadTokens },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage.thinkingTokens },
    total_tokens: usage.promptTokens + output,
  };
}

const functionCallId = (call: PlannedToolCall) => `call_${call.id}`;

function reasoningItem(meta: ResponseMeta, turn: ResponsesTurn, text: string): OutputItem {
  return {
    id: `rs_${hexId(`${meta.seed}:reasoning`, 48)}`,
    type: "reasoning",
    ...(turn.wantsEncrypted ? { encrypted_content: sealReasoning(text) } : {}),
    summary: turn.wantsSummary ? [{ type: "summary_text", text }] : [],
  };
}

function messageItem(meta: ResponseMeta, text: string): OutputItem {
  return {
    id: `msg_${hexId(`${meta.seed}:message`, 48)}`,
    type: "message",
    status: "completed",
    content: [{ type: "output_text", annotations: [], logprobs: [], text }],
    role: "assistant",
  };
}

/** A function_call item (with its namespace), or a custom_tool_call item for a custom tool. */
function functionCallItem(call: PlannedToolCall, tool: ToolSpec | undefined): OutputItem {
  if (tool?.custom) {
    const input = call.args["input"];
    return {
      id: `ctc_${call.id}`,
      type: "custom_tool_call",
      status: "completed",
      call_id: functionCallId(call),
      name: call.name,
      input: typeof input === "string" ? input : call.argsJson,
    };
  }
  return {
    id: `fc_${call.id}`,
    type: "function_call",
    status: "completed",
    arguments: call.argsJson,
    call_id: functionCallId(call),
    name: call.name,
    ...(tool?.namespace === undefined ? {} : { namespace: tool.namespace }),
  };
}

/** Every output item of the reply, finished. */
export function outputItems(meta: ResponseMeta, turn: ResponsesTurn, plan: ReplyPlan) {
  const choice = plan.choices[0]!;
  const items: OutputItem[] = [];
  if (plan.thinking !== undefined) items.push(reasoningItem(meta, turn, plan.thinking.text));
  const toolOf = (call: PlannedToolCall) => turn.tools.find((t) => t.name === call.name);
  if (choice.toolCalls.length > 0) {
    items.push(...choice.toolCalls.map((call) => functionCallItem(call, toolOf(call))));
  } else items.push(messageItem(meta, choice.text));
  return items;
}

/** `completed`, or `incomplete` when the output limit cut the reply. */
export const finalStatus = (plan: ReplyPlan) =>
  plan.choices[0]!.stop === "max_tokens" ? "incomplete" : "completed";

/** The response object; `output` and `usage` empty while it is in progress. */
export function responseObject(
  meta: ResponseMeta,
  body: JsonObject,
  status: "in_progress" | "completed" | "incomplete",
  output: readonly OutputItem[],
  usage: ReturnType<typeof responsesUsage> | null,
) {
  const reasoning = asObject(body.reasoning);
  return {
    id: meta.id,
    object: "response",
    created_at: meta.createdAt,
    status,
    background: false,
    error: null,
    incomplete_details: status === "incomplete" ? { reason: "max_output_tokens" } : null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: meta.model,
    output,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: null,
    prompt_cache_key: body.prompt_cache_key ?? null,
    reasoning: { effort: reasoning?.effort ?? null, summary: reasoning?.summary ?? null },
    store: body.store ?? true,
    temperature: body.temperature ?? 1,
    text: body.text ?? { format: { type: "text" } },
    tool_choice: body.tool_choice ?? "auto",
    tools: body.tools ?? [],
    top_p: body.top_p ?? 1,
    truncation: "disabled",
    usage,
    user: null,
    metadata: body.metadata ?? {},
  };
}

export function responsesResult(
  meta: ResponseMeta,
  body: JsonObject,
  turn: ResponsesTurn,
  plan: ReplyPlan,
) {
  return responseObject(
    meta,
    body,
    finalStatus(plan),
    outputItems(meta, turn, plan),
    responsesUsage(plan.usage),
  );
}
