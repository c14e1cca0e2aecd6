import type { Warning } from "@interlingua/core-types";
import { continuesUnsignedToolTurn } from "@interlingua/fmt-messages/internal";
import type { MessagesMessage } from "@interlingua/fmt-messages/schemas";

type Wire = Record<string, unknown>;

/**
 * A messages body forwarded as is still must not be one Anthropic rejects: with thinking on, a
 * continued tool turn has to start with its signed thinking block. When the client's history
 * lost it, thinking is turned off for this request (warned), as the translating path does
 * (fmt-messages `unsigned-tool-turn.ts`).
 */
export function withSignedToolTurn(wire: Wire, onWarning: (warning: Warning) => void): Wire {
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
