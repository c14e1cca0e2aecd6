import { asArray, asObject, field, type JsonObject } from "../core/json.ts";

// Gemini parses requests as protobuf JSON and refuses unknown fields, e.g. a `cache_control`
// another protocol's client left in. The simulator checks the request, content and part levels.

const REQUEST_FIELDS = fields(
  "contents systemInstruction system_instruction tools toolConfig tool_config generationConfig generation_config safetySettings safety_settings cachedContent cached_content labels model serviceTier service_tier",
);
const CONTENT_FIELDS = fields("role parts");
const PART_FIELDS = fields(
  "text inlineData inline_data fileData file_data functionCall function_call functionResponse function_response thought thoughtSignature thought_signature executableCode executable_code codeExecutionResult code_execution_result videoMetadata video_metadata mediaResolution media_resolution partMetadata part_metadata",
);

function fields(list: string): ReadonlySet<string> {
  return new Set(list.split(" "));
}

function unknown(object: JsonObject, known: ReadonlySet<string>, at: string): string | undefined {
  for (const key of Object.keys(object)) {
    if (!known.has(key)) {
      return `Invalid JSON payload received. Unknown name "${key}"${at ? ` at '${at}'` : ""}: Cannot find field.`;
    }
  }
  return undefined;
}

function checkContent(content: unknown, at: string): string | undefined {
  const c = asObject(content);
  if (!c) return undefined;
  const problem = unknown(c, CONTENT_FIELDS, at);
  if (problem) return problem;
  for (const [i, part] of asArray(c.parts).entries()) {
    const p = asObject(part);
    const partProblem = p && unknown(p, PART_FIELDS, `${at}.parts[${i}]`);
    if (partProblem) return partProblem;
  }
  return undefined;
}

export function unknownFieldError(body: JsonObject, topLevel: boolean): string | undefined {
  if (topLevel) {
    const problem = unknown(body, REQUEST_FIELDS, "");
    if (problem) return problem;
  }
  for (const [i, content] of asArray(body.contents).entries()) {
    const problem = checkContent(content, `contents[${i}]`);
    if (problem) return problem;
  }
  return checkContent(field(body, "systemInstruction", "system_instruction"), "system_instruction");
}
