import type { Warning } from "@interlingua/core-types";
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

/**
 * A messages body forwarded as is still must not be one Anthropic rejects: when the continued
 * tool turn lost its signed thinking block, thinking is turned off for this request (warned), as
 * the translating path does (`fitThinkingConstraints`).
 */
export function withSignedToolTurn(
  wire: Record<string, unknown>,
  onWarning: (warning: Warning) => void,
): Record<string, unknown> {
  const thinking = wire["thinking"] as { type?: unknown } | undefined;
  if (thinking === undefined || thinking === null || thinking.type === "disabled") return wire;
  const messages = wire["messages"];
  if (!Array.isArray(messages)) return wire;
  if (!continuesUnsignedToolTurn(messages as MessagesMessage[])) return wire;
  onWarning({
    type: "mapped",
    feature: "thinking",
    message:
      "the tool turn being continued has no signed thinking block, which Anthropic requires while thinking is on; thinking is off for this request",
  });
  return { ...wire, thinking: { type: "disabled" } };
}
