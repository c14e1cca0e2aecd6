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

export function toolChoiceFromResponses(choice: ResponsesToolChoice): ToolChoice {
  if (typeof choice === "string") return toolChoiceModeToCanonical[choice];
  return { type: "tool", name: (choice.name ?? choice.function?.name) as string };
}

export function toolChoiceToResponses(choice: ToolChoice): ResponsesToolChoice {
  return choice.type === "tool" ? { type: "function", name: choice.name } : choice.type;
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
} as const satisfies Record<NonNullable<ResponsesReasoning["effort"]>, ThinkingConfig>;

export function thinkingFromReasoning(reasoning: ResponsesReasoning): ThinkingConfig | undefined {
  const wantsSummary = typeof reasoning.summary === "string";
  const effort = reasoning.effort;
  if (effort == null) return wantsSummary ? { type: "adaptive", includeThoughts: true } : undefined;
  const thinking: ThinkingConfig = { ...effortToThinking[effort] };
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
export function responseFormatFromText(format: ResponsesTextFormat): ResponseFormat {
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

export function responseFormatToText(format: ResponseFormat): ResponsesTextFormat {
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
