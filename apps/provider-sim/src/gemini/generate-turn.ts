import {
  asArray,
  asNumber,
  asObject,
  asString,
  field,
  isObject,
  type JsonObject,
} from "../core/json.ts";
import { promptTokens } from "../core/tokens.ts";
import {
  choiceCount,
  type ThinkingMode,
  type ToolChoice,
  type ToolSpec,
  type Turn,
} from "../core/turn.ts";

// Reads a generateContent request into the neutral turn. The same counting prices cachedContents.

type Count = { chars: number; media: number };

/** Counts a content's parts; returns its text and its function responses. */
function countParts(content: unknown, count: Count): { text: string; responses: string[] } {
  const texts: string[] = [];
  const responses: string[] = [];
  for (const part of asArray(asObject(content)?.parts)) {
    const p = asObject(part);
    if (!p) continue;
    const call = asObject(field(p, "functionCall", "function_call"));
    const response = asObject(field(p, "functionResponse", "function_response"));
    if (typeof p.text === "string") {
      count.chars += p.text.length;
      if (p.thought !== true) texts.push(p.text);
    } else if (call) {
      count.chars += (asString(call.name) ?? "").length + JSON.stringify(call.args ?? {}).length;
    } else if (response) {
      const json = JSON.stringify(response.response ?? {});
      count.chars += (asString(response.name) ?? "").length + json.length;
      responses.push(json);
    } else {
      count.media += 1; // inlineData, fileData
    }
  }
  return { text: texts.join("\n"), responses };
}

function declarations(body: JsonObject): JsonObject[] {
  return asArray(body.tools).flatMap((tool) =>
    asArray(field(asObject(tool) ?? {}, "functionDeclarations", "function_declarations")).filter(
      isObject,
    ),
  );
}

/** Prompt tokens of contents, system instruction and tools: what a cachedContent holds. */
export function contentTokens(body: JsonObject): number {
  const count: Count = { chars: 0, media: 0 };
  for (const content of asArray(body.contents)) countParts(content, count);
  countParts(field(body, "systemInstruction", "system_instruction"), count);
  if (body.tools !== undefined) count.chars += JSON.stringify(body.tools).length;
  return promptTokens(count.chars, count.media);
}

function readToolChoice(body: JsonObject): ToolChoice {
  const config = asObject(
    field(
      asObject(field(body, "toolConfig", "tool_config")) ?? {},
      "functionCallingConfig",
      "function_calling_config",
    ),
  );
  const allowed = asString(
    asArray(field(config ?? {}, "allowedFunctionNames", "allowed_function_names"))[0],
  );
  switch (config?.mode) {
    case "NONE":
      return { kind: "none" };
    case "ANY":
      return allowed ? { kind: "named", name: allowed } : { kind: "any" };
    default:
      return { kind: "auto" };
  }
}

/** includeThoughts shows thought summaries; a thinking budget or level alone only counts them. */
function readThinking(generation: JsonObject | undefined): ThinkingMode {
  const thinking = asObject(field(generation ?? {}, "thinkingConfig", "thinking_config"));
  if (!thinking) return "off";
  if (field(thinking, "includeThoughts", "include_thoughts") === true) return "visible";
  const budget = asNumber(field(thinking, "thinkingBudget", "thinking_budget"));
  const level = field(thinking, "thinkingLevel", "thinking_level");
  return (budget !== undefined && budget !== 0) || level !== undefined ? "hidden" : "off";
}

export function readGenerateTurn(
  model: string,
  body: JsonObject,
  cachedTokens: number,
): Turn | string {
  const contents = asArray(body.contents).filter(isObject);
  if (contents.length === 0) return "* GenerateContentRequest.contents: contents is not specified";

  const count: Count = { chars: 0, media: 0 };
  countParts(field(body, "systemInstruction", "system_instruction"), count);
  let userText = "";
  let responses: string[] = [];
  for (const content of contents) {
    const parts = countParts(content, count);
    if (content.role === "model") continue;
    responses = parts.responses;
    if (responses.length === 0) userText = parts.text;
  }
  const tools: ToolSpec[] = [];
  for (const declaration of declarations(body)) {
    const name = asString(declaration.name);
    if (name)
      tools.push({ name, schema: declaration.parameters ?? declaration.parametersJsonSchema });
  }
  if (body.tools !== undefined) count.chars += JSON.stringify(body.tools).length;
  const generation = asObject(field(body, "generationConfig", "generation_config"));
  const last = contents[contents.length - 1]!;

  return {
    model,
    userText,
    toolResultText:
      last.role !== "model" && responses.length > 0 ? responses.join("\n") : undefined,
    promptChars: count.chars,
    mediaParts: count.media,
    cachedTokens,
    tools,
    toolChoice: readToolChoice(body),
    thinking: readThinking(generation),
    showsThinking: true,
    maxTokens: asNumber(field(generation ?? {}, "maxOutputTokens", "max_output_tokens")),
    choices: choiceCount(asNumber(field(generation ?? {}, "candidateCount", "candidate_count"))),
    ...geminiOutputSchema(generation),
  };
}

/** `responseJsonSchema` or `responseSchema` (either spelling), with a JSON mime type. */
function geminiOutputSchema(generation: JsonObject | undefined): { outputSchema?: unknown } {
  if (generation === undefined) return {};
  const schema =
    field(generation, "responseJsonSchema", "response_json_schema") ??
    field(generation, "responseSchema", "response_schema");
  return schema === undefined ? {} : { outputSchema: schema };
}
