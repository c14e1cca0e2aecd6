import {
  type AssistantPart,
  type RenderOptions,
  type Response,
  setAsideMalformedUsage,
  stringifyJsonKeepingNumbers,
  unknownUsage,
} from "@interlingua/core-types";
import { malformedReplyFromZod } from "@interlingua/errors";
import { liftCarriedSignatures } from "./carried-signatures.js";
import { parseMessagesFinishReason } from "./map-messages-finish-reason.js";
import { parseMessagesUsage } from "./map-messages-usage.js";
import {
  isKnownResponseBlock,
  type MessagesResponseBlock,
  messagesReplySchema,
  messagesUsageSchema,
} from "./messages-api.js";
import { parseMessagesCitations } from "./messages-citations.js";
import { MESSAGES_EXTRAS } from "./messages-extras.js";
import { withStopDetails } from "./messages-stop-details.js";
import { signatureOf } from "./unsigned-thinking.js";

export function parseMessagesBlock(block: MessagesResponseBlock): AssistantPart {
  switch (block.type) {
    case "text": {
      const citations = parseMessagesCitations(block.citations);
      return citations.length > 0
        ? { type: "text", text: block.text, citations }
        : { type: "text", text: block.text };
    }
    case "tool_use":
      return {
        type: "tool-call",
        id: block.id,
        name: block.name,
        arguments: stringifyJsonKeepingNumbers(block.input),
      };
    case "thinking":
      return signatureOf(block.signature)
        ? { type: "thinking", text: block.thinking, signature: block.signature as string }
        : { type: "thinking", text: block.thinking };
    case "redacted_thinking":
      return { type: "redacted-thinking", data: block.data };
  }
}

/**
 * A messages-format result (from Anthropic or a client) -> canonical. Anthropic sends no creation
 * time, so `created` is 0 and the caller stamps it. A non-null `stop_details` is kept in
 * `extras.messages.stop_details` (exact) and a refusal's category and explanation on the finish
 * reason (for other formats); web-search text citations are kept, `caller` on tool_use is ignored.
 * `onWarning` hears what is not kept: blocks this codec does not model (a server tool's call and
 * results: the text's citations carry its sources) and document citations, which name no URL.
 */
export function parseMessagesResponse(wire: unknown, options?: RenderOptions): Response {
  const parsed = messagesReplySchema.safeParse(
    setAsideMalformedUsage(wire, "usage", messagesUsageSchema, options?.onWarning),
  );
  if (!parsed.success) throw malformedReplyFromZod(parsed.error, "messages response");
  const w = parsed.data;
  if (options?.onWarning !== undefined) reportUnkept(w.content, options.onWarning);
  const response: Response = {
    id: w.id,
    model: w.model,
    created: 0,
    message: {
      role: "assistant",
      parts: liftCarriedSignatures(w.content.filter(isKnownResponseBlock).map(parseMessagesBlock)),
    },
    finishReason: withStopDetails(parseMessagesFinishReason(w.stop_reason), w.stop_details),
    usage: w.usage === undefined ? unknownUsage() : parseMessagesUsage(w.usage),
  };
  if (typeof w.stop_sequence === "string") response.stopSequence = w.stop_sequence;
  if (w.stop_details) response.extras = { [MESSAGES_EXTRAS]: { stop_details: w.stop_details } };
  return response;
}

/** One warning per unmodeled block type and per text block with citations not carried. */
function reportUnkept(
  content: readonly { type: string; citations?: unknown }[],
  warn: NonNullable<RenderOptions["onWarning"]>,
): void {
  const seen = new Set<string>();
  content.forEach((block, i) => {
    if (!isKnownResponseBlock(block as never)) {
      if (seen.has(block.type)) return;
      seen.add(block.type);
      warn({
        type: "dropped",
        feature: `content[${i}].${block.type}`,
        message: `${block.type} blocks have no canonical place; cited sources reach other formats as the text's citations`,
      });
      return;
    }
    const citations = Array.isArray(block.citations) ? block.citations : [];
    if (block.type === "text" && parseMessagesCitations(citations).length < citations.length) {
      warn({
        type: "dropped",
        feature: `content[${i}].citations`,
        message:
          "document citations (char, page and block locations) name no URL and are not carried",
      });
    }
  });
}
