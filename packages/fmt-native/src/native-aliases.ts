/**
 * Real clients send the generate-content body in two spellings: camelCase (the REST reference,
 * the JS SDK) and snake_case (the proto field names; curl examples, the Python SDK in some modes).
 * The upstream accepts both, so the parser does too: this rewrites the snake_case keys of the
 * structural objects to camelCase before validation. Payloads owned by the caller (function call
 * arguments, function responses, schemas) are never touched. When both spellings of one field are
 * present, camelCase wins, as the canonical spelling for this format.
 */

interface Shape {
  rename?: Readonly<Record<string, string>>;
  fields?: Readonly<Record<string, Shape>>;
  /** The value is an array whose items have this shape. */
  each?: Shape;
}

const blob: Shape = { rename: { mime_type: "mimeType" } };
const fileData: Shape = { rename: { mime_type: "mimeType", file_uri: "fileUri" } };
const media: Shape = {
  rename: { inline_data: "inlineData", file_data: "fileData" },
  fields: { inlineData: blob, fileData },
};
const part: Shape = {
  rename: {
    inline_data: "inlineData",
    file_data: "fileData",
    function_call: "functionCall",
    function_response: "functionResponse",
    thought_signature: "thoughtSignature",
  },
  fields: {
    inlineData: blob,
    fileData,
    functionResponse: { fields: { parts: { each: media } } },
  },
};
const content: Shape = { fields: { parts: { each: part } } };

const generationConfig: Shape = {
  rename: {
    max_output_tokens: "maxOutputTokens",
    top_p: "topP",
    top_k: "topK",
    stop_sequences: "stopSequences",
    candidate_count: "candidateCount",
    presence_penalty: "presencePenalty",
    frequency_penalty: "frequencyPenalty",
    response_mime_type: "responseMimeType",
    response_schema: "responseSchema",
    response_json_schema: "responseJsonSchema",
    thinking_config: "thinkingConfig",
  },
  fields: {
    thinkingConfig: {
      rename: {
        thinking_budget: "thinkingBudget",
        include_thoughts: "includeThoughts",
        thinking_level: "thinkingLevel",
      },
    },
  },
};

const tool: Shape = {
  rename: {
    function_declarations: "functionDeclarations",
    google_search: "googleSearch",
    code_execution: "codeExecution",
  },
  fields: {
    functionDeclarations: {
      each: { rename: { parameters_json_schema: "parametersJsonSchema" } },
    },
  },
};

const toolConfig: Shape = {
  rename: { function_calling_config: "functionCallingConfig" },
  fields: {
    functionCallingConfig: { rename: { allowed_function_names: "allowedFunctionNames" } },
  },
};

const request: Shape = {
  rename: {
    generation_config: "generationConfig",
    system_instruction: "systemInstruction",
    safety_settings: "safetySettings",
    tool_config: "toolConfig",
    cached_content: "cachedContent",
  },
  fields: {
    contents: { each: content },
    systemInstruction: content,
    generationConfig,
    tools: { each: tool },
    toolConfig,
  },
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A shape as one map over the keys an object may hold: a snake_case key names its camelCase
 * target, a key with a shape of its own names it; one lookup per key of the walked object.
 */
interface Compiled {
  keys: ReadonlyMap<string, { camel: string | undefined; child: Compiled | undefined }>;
  each: Compiled | undefined;
}

function compile(shape: Shape): Compiled {
  const fields = new Map(Object.entries(shape.fields ?? {}).map(([k, v]) => [k, compile(v)]));
  const keys = new Map<string, { camel: string | undefined; child: Compiled | undefined }>();
  for (const [key, child] of fields) keys.set(key, { camel: undefined, child });
  for (const [snake, camel] of Object.entries(shape.rename ?? {})) {
    keys.set(snake, { camel, child: fields.get(camel) });
  }
  return { keys, each: shape.each ? compile(shape.each) : undefined };
}

/** Returns the same reference when nothing needed rewriting (the common, camelCase case). */
function walk(value: unknown, shape: Compiled): unknown {
  const each = shape.each;
  if (each) {
    if (!Array.isArray(value)) return value;
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      const next = walk(item, each);
      if (next !== item) {
        out ??= value.slice();
        out[i] = next;
      }
    }
    return out ?? value;
  }
  if (!isPlainObject(value)) return value;
  let out: Record<string, unknown> | undefined;
  for (const key in value) {
    const entry = shape.keys.get(key);
    if (entry === undefined) continue;
    let target = key;
    const camel = entry.camel;
    if (camel !== undefined) {
      out ??= { ...value };
      delete out[key];
      // With both spellings present the camelCase one wins; it is walked on its own turn.
      if (value[camel] !== undefined) continue;
      out[camel] = value[key];
      target = camel;
    }
    if (entry.child === undefined) continue;
    const current = value[key];
    const next = walk(current, entry.child);
    if (next !== current) {
      out ??= { ...value };
      out[target] = next;
    }
  }
  return out ?? value;
}

const compiledRequest = compile(request);

/** Rewrites the snake_case spellings of a generate-content request body to camelCase. */
export function aliasNativeRequest(body: unknown): unknown {
  return walk(body, compiledRequest);
}
