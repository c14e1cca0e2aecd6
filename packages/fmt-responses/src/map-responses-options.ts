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

/**
 * The canonical choice of a wire one. Kinds the canonical model does not hold read as their
 * closest mode, and the wire value stays in extras for the Responses API (`isCarriedToolChoice`):
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
    return (choice as { mode?: unknown }).mode === "required"
      ? { type: "required" }
      : { type: "auto" };
  }
  return { type: "required" };
}

/** A wire choice the canonical one only approximates: carried as given toward the Responses API. */
export const isCarriedToolChoice = (choice: ResponsesToolChoice): boolean =>
  typeof choice !== "string" && choice.type !== "function" && choice.type !== "custom";

/** `customTools`: names of the request's custom tools, whose forced choice says `custom`. */
export function renderResponsesToolChoice(
  choice: ToolChoice,
  customTools: ReadonlySet<string> = new Set(),
): ResponsesToolChoice {
  if (choice.type !== "tool") return choice.type;
  return { type: customTools.has(choice.name) ? "custom" : "function", name: choice.name };
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
