import type {
  AssistantPart,
  TextPart,
  ToolResultContent,
  ToolResultPart,
  UserPart,
} from "./content-part.js";
import type { Message } from "./message.js";
import type { Request } from "./request.js";
import type { Tool } from "./tool.js";

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

/** The wire name of a boundary, as a client may also write it at the top level of its body. */
const WIRE_FIELD = "cache_control";

/**
 * Each format's bag of unknown top-level fields, without a top-level `cache_control` (Anthropic's
 * request-wide automatic caching, which a chat or native client may also send): a codec renders
 * its bag back verbatim, so the field would otherwise reach an upstream that refuses it.
 */
function stripExtras(extras: NonNullable<Request["extras"]>): NonNullable<Request["extras"]> {
  if (!Object.values(extras).some((bag) => WIRE_FIELD in bag)) return extras;
  const out: NonNullable<Request["extras"]> = {};
  for (const [format, bag] of Object.entries(extras)) {
    const { [WIRE_FIELD]: _dropped, ...rest } = bag;
    out[format] = rest;
  }
  return out;
}

/**
 * The request with no `cacheControl` anywhere: system, every message part, blocks inside tool
 * results, tools, and a top-level `cache_control` kept in a format's extras (rule 8: the service
 * strips cache_control before forwarding). Never mutates its input; parts without a boundary are
 * shared, not copied.
 */
export function stripCacheControl(request: Request): Request {
  const out: Request = {
    ...request,
    system: request.system.map((p) => without<TextPart>(p)),
    messages: request.messages.map(stripMessage),
    tools: request.tools.map((t) => without<Tool>(t)),
  };
  if (request.extras !== undefined) out.extras = stripExtras(request.extras);
  return out;
}
