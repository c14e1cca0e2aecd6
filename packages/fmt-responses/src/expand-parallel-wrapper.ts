import {
  parseJsonKeepingNumbers,
  stringifyJsonKeepingNumbers,
  type ToolCallPart,
} from "@interlingua/core-types";

/**
 * Some OpenAI models emit their internal parallel-call wrapper as one function call (named
 * `parallel` or `multi_tool_use.parallel`, arguments `{"tool_uses": [{"recipient_name":
 * "functions.<name>", "parameters": {...}}]}`) instead of one call per tool (see
 * parallel-tool-call-wrapper.1.chunks.txt). No client declared a tool by that name, so a
 * wrapper is expanded into the calls it stands for, with ids `<call_id>_<n>`.
 */
export const parallelWrapperNames: ReadonlySet<string> = new Set([
  "parallel",
  "multi_tool_use.parallel",
]);

const functionsPrefix = "functions.";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The calls a wrapper stands for, or undefined when the call is not a well-formed wrapper. */
export function expandParallelWrapper(
  callId: string,
  name: string,
  args: string,
): ToolCallPart[] | undefined {
  if (!parallelWrapperNames.has(name)) return undefined;
  let parsed: unknown;
  try {
    parsed = parseJsonKeepingNumbers(args);
  } catch {
    return undefined;
  }
  const uses = isRecord(parsed) ? parsed["tool_uses"] : undefined;
  if (!Array.isArray(uses) || uses.length === 0) return undefined;
  const calls: ToolCallPart[] = [];
  for (const [n, use] of uses.entries()) {
    if (!isRecord(use)) return undefined;
    const recipient = use["recipient_name"];
    const parameters = use["parameters"] ?? {};
    if (typeof recipient !== "string" || !recipient.startsWith(functionsPrefix)) return undefined;
    if (!isRecord(parameters)) return undefined;
    const toolName = recipient.slice(functionsPrefix.length);
    if (toolName === "") return undefined;
    calls.push({
      type: "tool-call",
      id: `${callId}_${n}`,
      name: toolName,
      arguments: stringifyJsonKeepingNumbers(parameters),
    });
  }
  return calls;
}
