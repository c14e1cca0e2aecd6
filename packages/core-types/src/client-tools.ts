import type { PushTransformer } from "./codec.js";
import type { AssistantPart, ToolResultPart } from "./content-part.js";
import { mapToolCalls } from "./map-tool-calls.js";
import type { Message } from "./message.js";
import type { Request } from "./request.js";
import type { Response } from "./response.js";
import type { StreamEvent } from "./stream-event.js";
import type { FunctionTool, ProviderTool, Tool } from "./tool.js";
import type { Warning } from "./warning.js";

/**
 * OpenAI Responses tools that only the Responses API takes, carried canonically as OpenAI
 * provider tools (`name` is their wire `type`, `options` the rest of the tool): a `namespace` of
 * function/custom tools and a `custom` (free-form input) tool. Toward an API without them they
 * are lowered to function tools, and the calls that come back are lifted to what the client
 * declared: a namespaced call, or a custom call whose input is the raw text.
 */
type Json = Record<string, unknown>;

/** A namespaced tool's name toward APIs without namespaces (their names take `[A-Za-z0-9_-]`). */
export const NAMESPACE_SEPARATOR = "__";
export const flatToolName = (namespace: string | undefined, name: string): string =>
  namespace === undefined ? name : `${namespace}${NAMESPACE_SEPARATOR}${name}`;

/** What a lowered function tool stands for in the client's request. */
export interface ToolOrigin {
  readonly name: string;
  readonly namespace?: string;
  readonly custom?: true;
}

/** The OpenAI tool of wire type `kind`, if `tool` is one. */
const openAiTool = (tool: Tool, kind: string): ProviderTool | undefined =>
  tool.type === "provider" && tool.provider === "openai" && tool.name === kind ? tool : undefined;
const isOpenAiTool = (tool: Tool, kind: string): boolean => openAiTool(tool, kind) !== undefined;

const str = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;

/** The one string parameter a custom tool's input travels in. */
const CUSTOM_INPUT = "input";

function customDescription(tool: Json): string {
  const parts: string[] = [];
  const description = str(tool["description"]);
  if (description !== undefined) parts.push(description);
  const format = (tool["format"] ?? {}) as Json;
  if (format["type"] === "grammar" && typeof format["definition"] === "string") {
    const syntax = str(format["syntax"]) ?? "grammar";
    parts.push(
      `Put the whole input in "${CUSTOM_INPUT}"; it must match this ${syntax} grammar:\n${format["definition"]}`,
    );
  } else {
    parts.push(`Put the whole input, as free-form text, in "${CUSTOM_INPUT}".`);
  }
  return parts.join("\n\n");
}

/** A wire function or custom tool (top level or inside a namespace) as a canonical function tool. */
function lowerWireTool(
  tool: Json,
  namespace: string | undefined,
  at: string,
  warn: (warning: Warning) => void,
): FunctionTool | undefined {
  const name = str(tool["name"]);
  if (name === undefined) {
    warn({ type: "dropped", feature: "tools.namespace", message: `${at}: a tool without a name` });
    return undefined;
  }
  const flat = flatToolName(namespace, name);
  if (tool["type"] === "custom") {
    return {
      type: "function",
      name: flat,
      description: customDescription(tool),
      parameters: {
        type: "object",
        properties: { [CUSTOM_INPUT]: { type: "string" } },
        required: [CUSTOM_INPUT],
      },
    };
  }
  if (tool["type"] === "function") {
    const out: FunctionTool = {
      type: "function",
      name: flat,
      parameters: (tool["parameters"] as Json | null | undefined) ?? {
        type: "object",
        properties: {},
      },
    };
    const description = str(tool["description"]);
    if (description !== undefined) out.description = description;
    if (typeof tool["strict"] === "boolean") out.strict = tool["strict"];
    return out;
  }
  warn({
    type: "dropped",
    feature: "tools.namespace",
    message: `${at}: a ${String(tool["type"])} tool inside a namespace has no equivalent here`,
  });
  return undefined;
}

/** Names of the request's custom tools: a forced or allowed one is named `custom` on OpenAI's wires. */
export const customToolNames = (tools: readonly Tool[]): Set<string> =>
  new Set(
    tools.flatMap((tool) => {
      const name = openAiTool(tool, "custom")?.options["name"];
      return typeof name === "string" ? [name] : [];
    }),
  );

/** The client's namespace and custom tools by the flat name they are lowered to. */
export function clientToolOrigins(tools: readonly Tool[]): Map<string, ToolOrigin> {
  const origins = new Map<string, ToolOrigin>();
  const add = (tool: Json, namespace: string | undefined) => {
    const name = str(tool["name"]);
    if (name === undefined) return;
    const origin: { name: string; namespace?: string; custom?: true } = { name };
    if (namespace !== undefined) origin.namespace = namespace;
    if (tool["type"] === "custom") origin.custom = true;
    if (namespace !== undefined || origin.custom)
      origins.set(flatToolName(namespace, name), origin);
  };
  for (const tool of tools) {
    const custom = openAiTool(tool, "custom");
    if (custom !== undefined) add({ ...custom.options, type: "custom" }, undefined);
    const group = openAiTool(tool, "namespace");
    if (group !== undefined) {
      const namespace = str(group.options["name"]);
      const inner = group.options["tools"];
      if (namespace === undefined || !Array.isArray(inner)) continue;
      for (const t of inner) if (t !== null && typeof t === "object") add(t as Json, namespace);
    }
  }
  return origins;
}

/**
 * The request for an API without namespace and custom tools: those tools become function tools
 * (a namespace's tools named `namespace__name`; a custom tool takes one string, `input`, with its
 * grammar in the description), and the calls in the history are said the same way, so the model
 * sees its own earlier calls. Other OpenAI-only tools stay, for the codec to report.
 */
export function lowerClientTools(request: Request, warn: (warning: Warning) => void): Request {
  const hasCalls = request.messages.some(
    (m) =>
      m.role === "assistant" &&
      m.parts.some((p) => p.type === "tool-call" && (p.namespace !== undefined || p.custom)),
  );
  const hasTools = request.tools.some(
    (t) =>
      isOpenAiTool(t, "namespace") || isOpenAiTool(t, "custom") || isOpenAiTool(t, "tool_search"),
  );
  if (!hasCalls && !hasTools) return request;

  const tools: Tool[] = [];
  request.tools.forEach((tool, i) => {
    const custom = openAiTool(tool, "custom");
    if (custom !== undefined) {
      const lowered = lowerWireTool(
        { ...custom.options, type: "custom" },
        undefined,
        `tools[${i}]`,
        warn,
      );
      if (lowered !== undefined) tools.push(lowered);
      return;
    }
    if (isOpenAiTool(tool, "tool_search")) {
      // Tool search loads deferred tools on demand; here every tool is offered from the start.
      warn({
        type: "mapped",
        feature: "tools.tool_search",
        message: `tools[${i}]: no tool search here; every tool is offered up front`,
      });
      return;
    }
    const group = openAiTool(tool, "namespace");
    if (group !== undefined) {
      const namespace = str(group.options["name"]);
      const inner: unknown[] = Array.isArray(group.options["tools"]) ? group.options["tools"] : [];
      inner.forEach((t, j) => {
        const lowered = lowerWireTool(
          (t ?? {}) as Json,
          namespace,
          `tools[${i}].tools[${j}]`,
          warn,
        );
        if (lowered !== undefined) tools.push(lowered);
      });
      return;
    }
    tools.push(tool);
  });

  const flatNames = new Map<string, string>();
  const messages = request.messages.map((message): Message => {
    if (message.role === "assistant") {
      return { ...message, parts: message.parts.map((p) => lowerCall(p, flatNames)) };
    }
    if (message.role === "tool") {
      return { ...message, parts: message.parts.map((p) => renameResult(p, flatNames)) };
    }
    return message;
  });
  return { ...request, tools, messages };
}

function lowerCall(part: AssistantPart, flatNames: Map<string, string>): AssistantPart {
  if (part.type !== "tool-call" || (part.namespace === undefined && part.custom !== true)) {
    return part;
  }
  const { namespace, custom, ...rest } = part;
  const name = flatToolName(namespace, part.name);
  flatNames.set(part.id, name);
  return {
    ...rest,
    name,
    arguments: custom ? JSON.stringify({ [CUSTOM_INPUT]: part.arguments }) : part.arguments,
  };
}

function renameResult(part: ToolResultPart, flatNames: Map<string, string>): ToolResultPart {
  const name = flatNames.get(part.toolCallId);
  return name === undefined || part.name === undefined ? part : { ...part, name };
}

/** A lowered custom call's arguments back to its raw input ("" when the model sent none). */
function customInput(args: string): string {
  try {
    const parsed = JSON.parse(args) as unknown;
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
      const input = (parsed as Json)[CUSTOM_INPUT];
      if (typeof input === "string") return input;
      if (Object.keys(parsed).length === 0) return "";
    }
  } catch {
    // Not JSON: the model wrote the input bare, which is what it means.
  }
  return args;
}

/** A reply from a lowered request, its calls named as the client declared them. */
export function liftClientToolCalls(
  response: Response,
  origins: ReadonlyMap<string, ToolOrigin>,
): Response {
  if (origins.size === 0) return response;
  return mapToolCalls(response, (part) => {
    if (part.namespace !== undefined || part.custom) return part;
    const origin = origins.get(part.name);
    if (origin === undefined) return part;
    return {
      ...part,
      ...origin,
      arguments: origin.custom ? customInput(part.arguments) : part.arguments,
    };
  });
}

/**
 * The same for a stream. A namespaced call is renamed at its start; a custom call's JSON
 * arguments are held to its end and given as one delta of raw input (the text inside a JSON
 * string is only certain once the string is closed).
 */
export function liftingClientToolCalls<I>(
  decoder: PushTransformer<I, StreamEvent>,
  origins: ReadonlyMap<string, ToolOrigin>,
): PushTransformer<I, StreamEvent> {
  if (origins.size === 0) return decoder;
  const held = new Map<string, { at: { index: number; alternative?: number }; args: string }>();
  const keyOf = (e: { index: number; alternative?: number }) => `${e.alternative ?? 0}:${e.index}`;
  const release = (key: string, emit: (event: StreamEvent) => void) => {
    const call = held.get(key);
    if (call === undefined) return;
    held.delete(key);
    const delta = customInput(call.args);
    if (delta !== "") emit({ type: "tool-arguments-delta", ...call.at, delta });
  };
  const lift =
    (emit: (event: StreamEvent) => void) =>
    (event: StreamEvent): void => {
      switch (event.type) {
        case "tool-call-start": {
          const origin =
            event.namespace === undefined && event.custom !== true
              ? origins.get(event.name)
              : undefined;
          if (origin === undefined) break;
          if (origin.custom) {
            const at =
              event.alternative === undefined
                ? { index: event.index }
                : { index: event.index, alternative: event.alternative };
            held.set(keyOf(event), { at, args: "" });
          }
          emit({ ...event, ...origin });
          return;
        }
        case "tool-arguments-delta": {
          const call = held.get(keyOf(event));
          if (call === undefined) break;
          call.args += event.delta;
          return;
        }
        case "part-end":
          release(keyOf(event), emit);
          break;
      }
      emit(event);
    };
  return {
    push: (message, emit) => decoder.push(message, lift(emit)),
    end(emit) {
      decoder.end(lift(emit));
      for (const key of [...held.keys()]) release(key, emit);
    },
  };
}
