import { type Json, parseSse } from "./wire.ts";

// What a client builds by hand from a gateway stream, to send back on its next turn.

/**
 * The assistant message a chat client builds from stream deltas (reasoning_details included;
 * `reasoning_content` too when the client keeps it, as a DeepSeek-style client does).
 */
export function accumulateChat(text: string, keep: { reasoningContent?: boolean } = {}): Json {
  const message: Json = { role: "assistant", content: "", tool_calls: [] };
  const details: Json[] = [];
  for (const frame of parseSse(text)) {
    if (frame.data === "[DONE]") continue;
    const delta = JSON.parse(frame.data).choices?.[0]?.delta;
    if (delta === undefined) continue;
    if (delta.content) message.content += delta.content;
    if (keep.reasoningContent === true && delta.reasoning_content) {
      message.reasoning_content = (message.reasoning_content ?? "") + delta.reasoning_content;
    }
    if (delta.reasoning_details) details.push(...delta.reasoning_details);
    for (const call of delta.tool_calls ?? []) {
      message.tool_calls[call.index] ??= {
        id: call.id,
        type: "function",
        function: { name: call.function.name, arguments: "" },
      };
      message.tool_calls[call.index].function.arguments += call.function.arguments ?? "";
    }
  }
  if (details.length > 0) message.reasoning_details = details;
  return message;
}

/** The content blocks a messages client builds from stream events (signatures included). */
export function accumulateMessages(text: string): Json[] {
  const blocks: Json[] = [];
  const partial: string[] = [];
  for (const frame of parseSse(text)) {
    const event = JSON.parse(frame.data);
    if (event.type === "content_block_start") {
      blocks[event.index] = { ...event.content_block };
      partial[event.index] = "";
    }
    if (event.type !== "content_block_delta") continue;
    const block = blocks[event.index];
    const delta = event.delta;
    if (delta.type === "text_delta") block.text += delta.text;
    if (delta.type === "thinking_delta") block.thinking += delta.thinking;
    if (delta.type === "signature_delta")
      block.signature = (block.signature ?? "") + delta.signature;
    if (delta.type === "input_json_delta") partial[event.index] += delta.partial_json;
  }
  return blocks.map((block, i) =>
    block.type === "tool_use" ? { ...block, input: JSON.parse(partial[i] || "{}") } : block,
  );
}
