import type {
  AssistantPart,
  Message,
  Request,
  TextPart,
  Tool,
  ToolResultContent,
  ToolResultPart,
  UserPart,
} from "@interlingua/core-types";

/** A shallow copy without `cacheControl` (the parts are flat records apart from tool results). */
function without<T extends object>(value: T): T {
  if (!("cacheControl" in value)) return value;
  const { cacheControl: _dropped, ...rest } = value as T & { cacheControl?: unknown };
  return rest as T;
}

function stripToolResult(part: ToolResultPart): ToolResultPart {
  const out = without(part);
  return { ...out, content: part.content.map((block) => without<ToolResultContent>(block)) };
}

function stripMessage(message: Message): Message {
  switch (message.role) {
    case "user":
      return { ...message, parts: message.parts.map((p) => without<UserPart>(p)) };
    case "assistant":
      return { ...message, parts: message.parts.map((p) => without<AssistantPart>(p)) };
    case "tool":
      return { ...message, parts: message.parts.map(stripToolResult) };
  }
}

/**
 * The request with no `cacheControl` anywhere: system, every message part, blocks inside tool
 * results, tools (rule 8: the service strips cache_control before forwarding). Never mutates
 * its input; parts without a boundary are shared, not copied.
 */
export function stripCacheControl(request: Request): Request {
  return {
    ...request,
    system: request.system.map((p) => without<TextPart>(p)),
    messages: request.messages.map(stripMessage),
    tools: request.tools.map((t) => without<Tool>(t)),
  };
}
