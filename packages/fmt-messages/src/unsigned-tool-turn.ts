import type { MessagesMessage } from "./messages-api.js";

/**
 * With thinking on, Anthropic rejects a request whose assistant turn being continued (a
 * `tool_use` answered by the following `tool_result`s) does not start with a thinking or
 * redacted_thinking block. A client that lost the signed block (a format that could not carry
 * it, or a client that dropped it) would get a 400 on every such turn, so the caller turns
 * thinking off for this one request instead and warns: Anthropic accepts that.
 */
export function continuesUnsignedToolTurn(messages: readonly MessagesMessage[]): boolean {
  let last = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === "assistant") {
      last = i;
      break;
    }
  }
  const assistant = messages[last];
  if (assistant === undefined || typeof assistant.content === "string") return false;
  if (!assistant.content.some((block) => block.type === "tool_use")) return false;
  const answer = messages[last + 1];
  const answered =
    answer !== undefined &&
    typeof answer.content !== "string" &&
    answer.content.some((block) => block.type === "tool_result");
  if (!answered) return false;
  const first = assistant.content[0]?.type;
  return first !== "thinking" && first !== "redacted_thinking";
}
