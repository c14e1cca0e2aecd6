import type { CacheBoundary, Message, Request } from "@interlingua/core-types";
import type { CacheClientFormat } from "./cache-analysis.js";

/**
 * The path of a boundary's block in the client's own wire terms, for error messages. The
 * canonical request no longer knows the exact wire layout, so the path is the one of the
 * normalised wire form each codec documents: chat system messages first, one per system part,
 * each tool result its own tool message; native one content per message. For the usual client
 * layouts that is the path the client wrote.
 */
export function boundaryWirePath(
  request: Request,
  format: CacheClientFormat,
  boundary: CacheBoundary,
): string {
  return format === "chat" ? chatPath(request, boundary) : nativePath(request, boundary);
}

const countBefore = (message: Message, end: number, types: readonly string[]) =>
  message.parts.slice(0, end).filter((part) => types.includes(part.type)).length;

/** Parts of an assistant turn that chat writes into `content` (the rest are fields of their own). */
const chatContentTypes = ["text", "image", "file"] as const;

function chatPath(request: Request, boundary: CacheBoundary): string {
  if (boundary.area === "system") return `messages[${boundary.part}].content[0]`;
  let index = request.system.length;
  for (const message of request.messages.slice(0, boundary.message)) {
    index += message.role === "tool" ? message.parts.length : 1;
  }
  const message = request.messages[boundary.message]!;
  if (message.role === "tool") {
    const result = message.parts[boundary.part]!;
    // A boundary on the whole result is written on its last block (the chat renderer's choice).
    const block = boundary.content ?? Math.max(result.content.length - 1, 0);
    return `messages[${index + boundary.part}].content[${block}]`;
  }
  if (message.parts[boundary.part]!.type === "tool-call") {
    return `messages[${index}].tool_calls[${countBefore(message, boundary.part, ["tool-call"])}]`;
  }
  const block =
    message.role === "assistant"
      ? countBefore(message, boundary.part, chatContentTypes)
      : boundary.part;
  return `messages[${index}].content[${block}]`;
}

function nativePath(request: Request, boundary: CacheBoundary): string {
  if (boundary.area === "system") return `systemInstruction.parts[${boundary.part}]`;
  const message = request.messages[boundary.message]!;
  // Redacted thinking has no native form, so later parts sit one index earlier on the wire.
  const part = boundary.part - countBefore(message, boundary.part, ["redacted-thinking"]);
  return `contents[${boundary.message}].parts[${part}]`;
}
