import type { AssistantPart } from "@interlingua/core-types";
import type { ChatToolCall } from "./chat-api.js";

/**
 * A chat message's tool_calls as canonical parts, for request history and responses alike.
 * Empty arguments become "{}", the canonical no-arguments string.
 */
export function parseChatToolCalls(
  calls: readonly ChatToolCall[] | null | undefined,
): AssistantPart[] {
  return (calls ?? []).map((call) => ({
    type: "tool-call",
    id: call.id,
    name: call.function.name,
    arguments: call.function.arguments === "" ? "{}" : call.function.arguments,
  }));
}
