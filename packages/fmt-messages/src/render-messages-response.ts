import {
  type AssistantPart,
  outputsOf,
  parseJsonKeepingNumbers,
  type RenderOptions,
  type Response,
  type Warning,
} from "@interlingua/core-types";
import { carrierBlock } from "./carried-signatures.js";
import {
  isForeignUnnamedReason,
  renderMessagesFinishReason,
} from "./map-messages-finish-reason.js";
import { renderMessagesUsage } from "./map-messages-usage.js";
import type { MessagesResponseBlockOut, MessagesResultWire } from "./messages-api.js";
import { renderCitedText } from "./messages-citations.js";
import { messagesExtras } from "./messages-extras.js";
import { renderStopDetails } from "./messages-stop-details.js";
import { UNSIGNED_THINKING } from "./unsigned-thinking.js";

/** Who called a tool: the model itself (server-side callers are not modelled). */
export const DIRECT = { type: "direct" } as const;

type Warn = (type: Warning["type"], feature: string, message: string) => void;

/** A tool call's arguments as the object `input` must be, or undefined when they are not one. */
export function argumentsObject(args: string): Record<string, unknown> | undefined {
  if (args === "") return {};
  try {
    const value: unknown = parseJsonKeepingNumbers(args);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // Falls through: not JSON.
  }
  return undefined;
}

function renderBlock(
  part: AssistantPart,
  feature: string,
  warn: Warn,
): MessagesResponseBlockOut | undefined {
  switch (part.type) {
    case "text":
      // Gemini validates call signatures only; a carrier after the answer's text would make it
      // the last block, which clients read as the answer (Claude Code's -p prints "").
      if (part.signature !== undefined) {
        warn("dropped", `${feature}.signature`, "text blocks carry no signature");
      }
      return { type: "text", text: part.text };
    case "tool-call": {
      let input = argumentsObject(part.arguments);
      if (!input) {
        warn("dropped", `${feature}.arguments`, "arguments that are not a JSON object become {}");
        input = {};
      }
      return { type: "tool_use", id: part.id, name: part.name, input, caller: DIRECT };
    }
    case "thinking":
      // The wire field is required; "" is the protocol's own "no signature", never an invented one.
      return {
        type: "thinking",
        thinking: part.text,
        signature: part.signature || UNSIGNED_THINKING,
      };
    case "redacted-thinking":
      return { type: "redacted_thinking", data: part.data };
    case "image":
    case "file":
      warn("dropped", feature, `a messages result cannot carry ${part.type} output`);
      return undefined;
  }
}

/**
 * Canonical -> the client's messages-format result, exactly the fields of docs/api-reference.md's table. The
 * format has one reply per response: alternatives are dropped with a warning (reported as
 * `choices`, as clients have always seen it). A response without output renders no stop reason.
 */
export function renderMessagesResponse(
  response: Response,
  options: RenderOptions = {},
): MessagesResultWire {
  const onWarning = options.onWarning;
  const warn: Warn = (type, feature, message) => onWarning?.({ type, feature, message });
  const outputs = outputsOf(response);
  const choice = outputs[0];
  if (outputs.length > 1) {
    warn(
      "dropped",
      "choices",
      "a messages result holds one reply; choices after the first are dropped",
    );
  }
  if (response.providerExtras?.gemini?.promptFeedback !== undefined) {
    warn("dropped", "promptFeedback", "a messages result has no prompt feedback");
  }
  if (choice !== undefined && isForeignUnnamedReason(choice.finishReason)) {
    warn(
      "mapped",
      "choices[0].finishReason",
      `${choice.finishReason.raw} has no stop_reason: the message ends with end_turn`,
    );
  }
  if (choice?.logprobs !== undefined) {
    warn("dropped", "choices[0].logprobs", "a messages result has no log probabilities");
  }
  if (choice?.providerExtras?.gemini?.safetyRatings !== undefined) {
    warn("dropped", "choices[0].safetyRatings", "a messages result has no safety ratings");
  }
  if (response.usage.providerExtras?.gemini?.inputTokensByModality !== undefined) {
    warn("dropped", "usage.inputTokensByModality", "messages usage has no per-modality counts");
  }
  const content: MessagesResponseBlockOut[] = [];
  choice?.message.parts.forEach((part, i) => {
    const feature = `choices[0].message.parts[${i}]`;
    if (part.type === "text" && part.citations !== undefined) {
      if (part.signature !== undefined) {
        warn("dropped", `${feature}.signature`, "text blocks carry no signature");
      }
      content.push(...renderCitedText(part, feature, warn));
      return;
    }
    const block = renderBlock(part, feature, warn);
    if (block) content.push(block);
    // A signature a tool_use block cannot hold follows it in a carrier block.
    if (part.type === "tool-call" && part.signature !== undefined) {
      content.push(carrierBlock(part.id, part.signature));
    }
  });
  const details = messagesExtras(response.extras)?.["stop_details"];
  return {
    id: response.id,
    type: "message",
    role: "assistant",
    model: response.model,
    content,
    stop_reason: choice ? renderMessagesFinishReason(choice.finishReason) : null,
    stop_sequence: choice?.stopSequence ?? null,
    stop_details:
      details && typeof details === "object"
        ? (details as Record<string, unknown>)
        : choice
          ? (renderStopDetails(choice.finishReason) as Record<string, unknown> | null)
          : null,
    usage: renderMessagesUsage(response.usage, (feature, message) =>
      warn("dropped", feature, message),
    ),
  };
}
