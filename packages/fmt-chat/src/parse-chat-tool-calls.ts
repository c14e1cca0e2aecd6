import type { AssistantPart, ToolCallPart } from "@interlingua/core-types";
import { type ChatAnyToolCall, isChatCustomCall } from "./chat-api.js";

/**
 * A chat message's tool_calls as canonical parts, for request history and responses alike.
 * Empty arguments become "{}", the canonical no-arguments string.
 */
export function parseChatToolCalls(
  calls: readonly ChatAnyToolCall[] | null | undefined,
): AssistantPart[] {
  return (calls ?? []).map((call) =>
    isChatCustomCall(call)
      ? {
          type: "tool-call",
          id: call.id,
          name: call.custom.name,
          arguments: call.custom.input,
          custom: true,
        }
      : {
          type: "tool-call",
          id: call.id,
          name: call.function.name,
          arguments: call.function.arguments === "" ? "{}" : call.function.arguments,
        },
  );
}

/** A tool-call part as chat writes it; a custom tool's call carries its raw input. */
export const renderChatToolCall = (part: ToolCallPart): ChatAnyToolCall =>
  part.custom
    ? { id: part.id, type: "custom", custom: { name: part.name, input: part.arguments } }
    : {
        id: part.id,
        type: "function",
        function: { name: part.name, arguments: part.arguments === "" ? "{}" : part.arguments },
      };
