import { mapToolCalls } from "./map-tool-calls.js";
import type { Request } from "./request.js";
import type { Response } from "./response.js";
import type { StreamEvent } from "./stream-event.js";

/** What a provider accepts as a function name (each format package exports its own). */
export interface ToolNameRule {
  /** The whole name is acceptable. */
  readonly valid: RegExp;
  /** One character that is not acceptable (global). */
  readonly invalid: RegExp;
  /** A first character that is acceptable, when the rule is stricter there. */
  readonly start?: RegExp;
  readonly max: number;
}

/** FNV-1a, 32 bits, in base 36: short, stable, dependency-free. */
function shortHash(value: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

/**
 * A tool name the rule accepts. Valid names pass unchanged; others have each refused character
 * replaced by `_` and a hash of the ORIGINAL name appended (cut to fit `max`), so `a.b` and `a:b`
 * never collide and the same name always becomes the same one.
 */
export function fitToolName(name: string, rule: ToolNameRule): string {
  if (rule.valid.test(name)) return name;
  let base = name.replace(rule.invalid, "_");
  if (rule.start !== undefined && !rule.start.test(base)) base = `_${base}`;
  const suffix = `_${shortHash(name)}`;
  return base.slice(0, Math.max(1, rule.max - suffix.length)) + suffix;
}

/** A request's tool names fitted to a rule, and the way back (wire name -> client's name). */
export interface RenamedTools {
  readonly request: Request;
  /** Empty when no name changed. */
  readonly original: ReadonlyMap<string, string>;
}

/**
 * Every function name of a request (tools, tool choice, calls and results in the history)
 * fitted to an upstream's rule: a name it would refuse is renamed deterministically, and
 * `original` maps it back for the reply (`restoreToolNames`, `restoringToolNames`).
 */
export function renameTools(request: Request, rule: ToolNameRule): RenamedTools {
  const original = new Map<string, string>();
  const fit = (name: string): string => {
    const wire = fitToolName(name, rule);
    if (wire !== name) original.set(wire, name);
    return wire;
  };
  const needs = (name: string | undefined) => name !== undefined && !rule.valid.test(name);
  const anyInvalid =
    request.tools.some((tool) => tool.type === "function" && needs(tool.name)) ||
    (request.toolChoice?.type === "tool" && needs(request.toolChoice.name)) ||
    (allowedOf(request.toolChoice)?.some(needs) ?? false) ||
    request.messages.some((message) =>
      message.parts.some(
        (part) =>
          (part.type === "tool-call" && needs(part.name)) ||
          (part.type === "tool-result" && needs(part.name)),
      ),
    );
  if (!anyInvalid) return { request, original };
  const renamed: Request = {
    ...request,
    tools: request.tools.map((tool) =>
      tool.type === "function" ? { ...tool, name: fit(tool.name) } : tool,
    ),
    messages: request.messages.map(
      (message) =>
        ({
          ...message,
          parts: message.parts.map((part) =>
            part.type === "tool-call"
              ? { ...part, name: fit(part.name) }
              : part.type === "tool-result" && part.name !== undefined
                ? { ...part, name: fit(part.name) }
                : part,
          ),
        }) as typeof message,
    ),
  };
  const choice = request.toolChoice;
  if (choice?.type === "tool") renamed.toolChoice = { type: "tool", name: fit(choice.name) };
  if ((choice?.type === "auto" || choice?.type === "required") && choice.allowed) {
    renamed.toolChoice = { type: choice.type, allowed: choice.allowed.map(fit) };
  }
  return { request: renamed, original };
}

const allowedOf = (choice: Request["toolChoice"]): string[] | undefined =>
  choice?.type === "auto" || choice?.type === "required" ? choice.allowed : undefined;

/** A reply's tool-call names as the client named them. */
export function restoreToolNames(
  response: Response,
  original: ReadonlyMap<string, string>,
): Response {
  if (original.size === 0) return response;
  return mapToolCalls(response, (part) => {
    const name = original.get(part.name);
    return name === undefined ? part : { ...part, name };
  });
}

/** The same for a stream's events: a `tool-call-start` names the client's tool. */
export const restoreToolNameEvent = (
  event: StreamEvent,
  original: ReadonlyMap<string, string>,
): StreamEvent =>
  event.type === "tool-call-start" && original.has(event.name)
    ? { ...event, name: original.get(event.name)! }
    : event;
