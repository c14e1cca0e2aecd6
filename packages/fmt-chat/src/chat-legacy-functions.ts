import type { Tool, ToolChoice, Warning } from "@interlingua/core-types";
import { invalidRequest } from "@interlingua/errors";
import type {
  ChatAnyToolCall,
  ChatFinishReason,
  ChatFunction,
  ChatFunctionCall,
  ChatFunctionChoice,
  ChatMessage,
  ChatRequestWire,
  ChatTool,
  ChatToolCall,
  ChatToolChoice,
} from "./chat-api.js";
import { defaultToolParameters } from "./chat-api.js";

/*
 * OpenAI's deprecated function calling (`functions`, `function_call`, `role: "function"`), which
 * its chat endpoint still accepts: parsed as function tools, a tool choice, tool calls and tool
 * results; a request that used it gets its reply the same way (`providerExtras.openai
 * .legacyFunctions`). The wire's calls have no id: they are numbered in the conversation's order
 * (`legacyCallId`), and a result answers the latest unanswered call of its function's name.
 */

/** The id a legacy call gets: its position among the conversation's calls, the same every parse. */
export const legacyCallId = (n: number): string => `function_call_${n}`;

/**
 * The id of each legacy call and result, by message index: calls numbered in order, a result
 * taking the latest unanswered call of its name (or, answering none, an id of its own).
 */
export function legacyCallIds(messages: readonly ChatMessage[]): Map<number, string> {
  const ids = new Map<number, string>();
  const unanswered: { id: string; name: string }[] = [];
  let next = 0;
  messages.forEach((message, i) => {
    if (message.role === "assistant" && message.function_call != null) {
      const id = legacyCallId(next++);
      ids.set(i, id);
      unanswered.push({ id, name: message.function_call.name });
    } else if (message.role === "function") {
      const at = unanswered.findLastIndex((call) => call.name === message.name);
      ids.set(i, at < 0 ? legacyCallId(next++) : unanswered.splice(at, 1)[0]!.id);
    }
  });
  return ids;
}

/**
 * A message's tool calls with its legacy `function_call` appended under `id`; the tool calls
 * alone when it has none, or when `id` is undefined (the call stays a `function_call`).
 */
export function withLegacyCall(
  calls: readonly ChatAnyToolCall[] | null | undefined,
  call: ChatFunctionCall | null | undefined,
  id: string | undefined,
): readonly ChatAnyToolCall[] | null | undefined {
  return call == null || id === undefined ? calls : [...(calls ?? []), { id, function: call }];
}

/** OpenAI refuses these mixes (400 invalid_request_error): so does the parser, naming the field. */
export function checkLegacyFunctions(wire: ChatRequestWire): void {
  const legacy = wire.functions != null;
  if (!legacy) {
    if (wire.function_call != null) {
      throw invalidRequest(
        "function_call: only allowed when functions are given (use tool_choice with tools)",
        "function_call",
      );
    }
    return;
  }
  if (wire.tools != null) {
    throw invalidRequest(
      "functions: give tools or functions, not both (functions are deprecated)",
      "functions",
    );
  }
  if (wire.tool_choice != null) {
    throw invalidRequest(
      "tool_choice: only allowed with tools; with functions, use function_call",
      "tool_choice",
    );
  }
  wire.messages.forEach((message, i) => {
    if (message.role === "assistant" && (message.tool_calls?.length ?? 0) > 0) {
      const param = `messages[${i}].tool_calls`;
      throw invalidRequest(`${param}: not allowed with functions; use function_call`, param);
    }
    // A tool message answers a tool_calls entry, which functions rule out.
    if (message.role === "tool") {
      const param = `messages[${i}].role`;
      throw invalidRequest(
        `${param}: "tool" answers tool_calls; with functions, use "function"`,
        param,
      );
    }
  });
}

export function parseLegacyFunctions(functions: readonly ChatFunction[]): Tool[] {
  return functions.map((fn) => {
    const tool: Tool = {
      type: "function",
      name: fn.name,
      parameters: fn.parameters ?? defaultToolParameters(),
    };
    if (fn.description !== undefined) tool.description = fn.description;
    return tool;
  });
}

const fromFunctionMode: Readonly<Record<"auto" | "none", ToolChoice>> = {
  auto: { type: "auto" },
  none: { type: "none" },
};

export function parseLegacyFunctionChoice(choice: ChatFunctionChoice): ToolChoice {
  return typeof choice === "string"
    ? fromFunctionMode[choice]
    : { type: "tool", name: choice.name };
}

/**
 * The function tools and tool choice of a rendered body as `functions` / `function_call`. A tool
 * choice `required` has no legacy form: it is left out (auto), reported.
 */
export function toLegacyFunctions(out: ChatRequestWire, warn: (warning: Warning) => void): void {
  if (out.tools !== undefined && out.tools !== null) {
    const functions: ChatFunction[] = [];
    const others: ChatTool[] = [];
    for (const tool of out.tools) {
      if (tool.type !== "function") {
        others.push(tool);
        continue;
      }
      const { strict: _strict, ...fn } = (tool as Extract<ChatTool, { type: "function" }>).function;
      functions.push(fn);
    }
    out.functions = functions;
    if (others.length > 0) out.tools = others;
    else delete out.tools;
  } else {
    // The client sent `functions`, possibly empty: it stays the legacy interface.
    out.functions = [];
  }
  const choice: ChatToolChoice | null | undefined = out.tool_choice;
  delete out.tool_choice;
  if (choice === undefined || choice === null) return;
  if (choice === "auto" || choice === "none") out.function_call = choice;
  else if (typeof choice !== "string" && choice.type === "function") {
    out.function_call = { name: (choice as { function: { name: string } }).function.name };
  } else {
    warn({
      type: "dropped",
      feature: "toolChoice",
      message: "function_call has no form for this tool choice; the model chooses (auto)",
    });
  }
}

/**
 * A reply to a request with `functions`: its first call as `function_call` (the interface makes
 * one call a turn; any further call is dropped, reported) and `finish_reason: "function_call"`.
 */
export function legacyReplyCall(
  calls: readonly ChatToolCall[],
  at: string,
  warn: (warning: Warning) => void,
): ChatFunctionCall | undefined {
  calls.slice(1).forEach((_, k) => {
    warn({
      type: "dropped",
      feature: `${at}.message.tool_calls[${k + 1}]`,
      message: "the deprecated functions interface makes one call a turn",
    });
  });
  return calls[0] === undefined ? undefined : { ...calls[0].function };
}

/** `tool_calls` is `function_call` for a client of the deprecated interface. */
export const legacyFinishReason = (reason: ChatFinishReason): ChatFinishReason =>
  reason === "tool_calls" ? "function_call" : reason;
