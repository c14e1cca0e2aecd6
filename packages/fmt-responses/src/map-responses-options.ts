import type {
  ResponseFormat,
  ThinkingConfig,
  ThinkingEffort,
  ToolChoice,
} from "@interlingua/core-types";
import type {
  ResponsesReasoning,
  ResponsesTextFormat,
  ResponsesToolChoice,
} from "./responses-api.js";

/** `tool_choice` strings; a named function is `{type: "function", name}` both ways. */
export const toolChoiceModeToCanonical = {
  auto: { type: "auto" },
  none: { type: "none" },
  required: { type: "required" },
} as const satisfies Record<string, ToolChoice>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `{type: "function" | "custom", name}` and nothing else: the canonical model holds its name. */
function toolName(entry: unknown): string | undefined {
  if (!isRecord(entry) || Object.keys(entry).length !== 2) return;
  if (entry["type"] !== "function" && entry["type"] !== "custom") return;
  const name = entry["name"];
  return typeof name === "string" && name !== "" ? name : undefined;
}

const namesCustomTool = (choice: ResponsesToolChoice): boolean => {
  const tools = isRecord(choice) ? choice["tools"] : undefined;
  return Array.isArray(tools) && tools.some((t) => isRecord(t) && t["type"] === "custom");
};

/**
 * `allowed_tools` listing only function and custom tools by name, with mode `auto` or
 * `required`: the canonical choice with `allowed` (a custom tool is a function elsewhere). Any
 * other list (hosted or MCP tools, namespaces) has no canonical form.
 */
function parseAllowedTools(choice: ResponsesToolChoice): ToolChoice | undefined {
  if (typeof choice === "string" || choice.type !== "allowed_tools") return;
  const record = choice as Record<string, unknown>;
  if (Object.keys(record).some((k) => k !== "type" && k !== "mode" && k !== "tools")) return;
  const { mode, tools } = record;
  if ((mode !== "auto" && mode !== "required") || !Array.isArray(tools) || tools.length === 0) {
    return;
  }
  const names = tools.map(toolName);
  if (names.some((name) => name === undefined)) return;
  return { type: mode, allowed: names as string[] };
}

/**
 * The canonical choice of a wire one. `allowed_tools` naming function tools is the canonical
 * choice with `allowed`. Kinds the canonical model does not hold read as their closest mode, and
 * the wire value stays in extras for the Responses API (`isCarriedToolChoice`): another
 * `allowed_tools` as its mode, a hosted tool forced as `required`; a `custom` tool is named.
 */
export function parseResponsesToolChoice(choice: ResponsesToolChoice): ToolChoice {
  if (typeof choice === "string") return toolChoiceModeToCanonical[choice];
  if (choice.type === "function" || choice.type === "custom") {
    const named = choice as { name?: unknown; function?: { name?: unknown } };
    const name = named.name ?? named.function?.name;
    if (typeof name === "string" && name !== "") return { type: "tool", name };
  }
  if (choice.type === "allowed_tools") {
    const canonical = parseAllowedTools(choice);
    if (canonical) return canonical;
    return (choice as { mode?: unknown }).mode === "required"
      ? { type: "required" }
      : { type: "auto" };
  }
  return { type: "required" };
}

/** An `allowed_tools` the canonical choice holds whole (its `allowed`), carried or not. */
export const isCanonicalAllowedTools = (choice: unknown): boolean =>
  isRecord(choice) && parseAllowedTools(choice as ResponsesToolChoice) !== undefined;

/**
 * A wire choice the canonical one only approximates, carried as given toward the Responses API:
 * also an `allowed_tools` naming a custom tool (the canonical list does not say which are custom).
 */
export const isCarriedToolChoice = (choice: ResponsesToolChoice): boolean =>
  typeof choice !== "string" &&
  choice.type !== "function" &&
  choice.type !== "custom" &&
  (!parseAllowedTools(choice) || namesCustomTool(choice));

/** `customTools`: names of the request's custom tools, whose forced choice says `custom`. */
export function renderResponsesToolChoice(
  choice: ToolChoice,
  customTools: ReadonlySet<string> = new Set(),
): ResponsesToolChoice {
  if (choice.type === "tool") {
    return { type: customTools.has(choice.name) ? "custom" : "function", name: choice.name };
  }
  if (choice.type !== "none" && choice.allowed) {
    return {
      type: "allowed_tools",
      mode: choice.type,
      tools: choice.allowed.map((name) => ({
        type: customTools.has(name) ? "custom" : "function",
        name,
      })),
    };
  }
  return choice.type;
}

/**
 * `reasoning.effort` is canonical `thinking.effort`; `none` turns thinking off. A requested
 * summary is a request for thought text (`includeThoughts`); without an effort the model picks
 * its own, which is the canonical `adaptive`.
 */
export const effortToThinking = {
  none: { type: "disabled" },
  minimal: { type: "enabled", effort: "minimal" },
  low: { type: "enabled", effort: "low" },
  medium: { type: "enabled", effort: "medium" },
  high: { type: "enabled", effort: "high" },
} as const satisfies Record<string, ThinkingConfig>;

/** An effort OpenAI added after these (`xhigh`) reads as the highest the canonical model holds. */
export const isKnownEffort = (effort: string): effort is keyof typeof effortToThinking =>
  Object.hasOwn(effortToThinking, effort);

export function parseResponsesReasoning(reasoning: ResponsesReasoning): ThinkingConfig | undefined {
  const wantsSummary = typeof reasoning.summary === "string";
  const effort = reasoning.effort;
  if (effort == null) return wantsSummary ? { type: "adaptive", includeThoughts: true } : undefined;
  const thinking: ThinkingConfig = { ...effortToThinking[isKnownEffort(effort) ? effort : "high"] };
  if (wantsSummary) thinking.includeThoughts = true;
  return thinking;
}

export function effortFromThinking(
  thinking: ThinkingConfig,
): NonNullable<ResponsesReasoning["effort"]> | undefined {
  if (thinking.type === "disabled") return "none";
  return thinking.effort satisfies ThinkingEffort | undefined;
}

/** `text.format` is the canonical response format. */
export function parseResponsesTextFormat(format: ResponsesTextFormat): ResponseFormat {
  switch (format.type) {
    case "text":
      return { type: "text" };
    case "json_object":
      return { type: "json-object" };
    case "json_schema": {
      const out: ResponseFormat = { type: "json-schema", schema: format.schema };
      if (format.name !== undefined) out.name = format.name;
      if (typeof format.strict === "boolean") out.strict = format.strict;
      return out;
    }
  }
}

export function renderResponsesTextFormat(format: ResponseFormat): ResponsesTextFormat {
  switch (format.type) {
    case "text":
      return { type: "text" };
    case "json-object":
      return { type: "json_object" };
    case "json-schema": {
      const out: ResponsesTextFormat = { type: "json_schema", schema: format.schema };
      if (format.name !== undefined) out.name = format.name;
      if (format.strict !== undefined) out.strict = format.strict;
      return out;
    }
  }
}
