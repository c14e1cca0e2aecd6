/**
 * Hand-written fast-check arbitraries of the generate-content WIRE format (requests, responses,
 * stream chunks, JSON Schemas for the sanitiser). Every generated request and response passes the
 * zod schemas of `native-api.ts` (a property test proves it); the cross-format conformance suite
 * reuses them. Optional keys are omitted rather than set to undefined.
 */
import { harmCategories } from "@interlingua/core-types";
import {
  base64,
  fc,
  identifier,
  jsonObject,
  logprobValue,
  text,
} from "@interlingua/core-types/testing";
import { nativeFinishReasonTable } from "./map-native-finish-reason.js";
import type {
  NativeContent,
  NativeFunctionDeclaration,
  NativePart,
  NativeRequestWire,
  NativeResponseWire,
  NativeSafetyRating,
  NativeTool,
  NativeUsageMetadata,
} from "./native-api.js";

export { fc };

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** Drops the keys whose value is undefined (exact optional properties). */
function compact<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = v;
  return out as T;
}

const url = fc
  .tuple(
    fc.constantFrom("https", "http"),
    fc.stringMatching(/^[a-z]{1,10}\.(com|org|dev)$/),
    fc.stringMatching(/^[a-z0-9]{1,8}$/),
    fc.constantFrom(".png", ".jpg", ".pdf", ".mp4", "", ".webp"),
  )
  .map(([scheme, host, name, ext]) => `${scheme}://${host}/${name}${ext}`);

export const nativeCacheControl = fc.record(
  { type: fc.constant("ephemeral" as const), ttl: fc.constantFrom("5m" as const, "1h" as const) },
  { requiredKeys: ["type"] },
);

const signature = base64;

export const nativeTextPart: fc.Arbitrary<NativePart> = fc.record(
  { text: text(), thoughtSignature: signature, cache_control: nativeCacheControl },
  { requiredKeys: ["text"] },
);
export const nativeThoughtPart: fc.Arbitrary<NativePart> = fc.record(
  { text: text(), thought: fc.constant(true), thoughtSignature: signature },
  { requiredKeys: ["text", "thought"] },
);
export const nativeInlineDataPart: fc.Arbitrary<NativePart> = fc.record(
  {
    inlineData: fc.record({
      mimeType: fc.constantFrom("image/png", "image/jpeg", "application/pdf", "audio/mp3"),
      data: base64,
    }),
    cache_control: nativeCacheControl,
  },
  { requiredKeys: ["inlineData"] },
);
export const nativeFileDataPart: fc.Arbitrary<NativePart> = fc.record(
  {
    fileData: fc.record(
      {
        mimeType: fc.constantFrom("image/png", "image/webp", "application/pdf", "video/mp4"),
        fileUri: url,
      },
      { requiredKeys: ["fileUri"] },
    ),
    cache_control: nativeCacheControl,
  },
  { requiredKeys: ["fileData"] },
);
export const nativeFunctionCallPart: fc.Arbitrary<NativePart> = fc.record(
  {
    functionCall: fc.record(
      { name: identifier, args: jsonObject, id: identifier },
      { requiredKeys: ["name"] },
    ),
    thoughtSignature: signature,
    cache_control: nativeCacheControl,
  },
  { requiredKeys: ["functionCall"] },
);

/** The shapes function responses take: a result text, an error, any object, nothing. */
const functionResponseBody = fc.oneof(
  text().map((result) => ({ result })),
  text().map((error) => ({ error })),
  jsonObject.map((error) => ({ error })),
  jsonObject,
  fc.constant({}),
);

export const nativeFunctionResponsePart: fc.Arbitrary<NativePart> = fc.record(
  {
    functionResponse: fc.record(
      {
        name: identifier,
        response: functionResponseBody,
        id: identifier,
        parts: fc.array(
          fc.oneof(
            fc.record({
              inlineData: fc.record({ mimeType: fc.constant("image/png"), data: base64 }),
            }),
            fc.record({
              fileData: fc.record({ mimeType: fc.constant("image/jpeg"), fileUri: url }),
            }),
          ),
          { minLength: 1, maxLength: 2 },
        ),
      },
      { requiredKeys: ["name"] },
    ),
    cache_control: nativeCacheControl,
  },
  { requiredKeys: ["functionResponse"] },
);

export const nativeUserContent: fc.Arbitrary<NativeContent> = fc.record(
  {
    role: fc.constantFrom("user" as const, "function" as const),
    parts: fc.array(
      fc.oneof(
        { weight: 4, arbitrary: nativeTextPart },
        { weight: 1, arbitrary: nativeInlineDataPart },
        { weight: 1, arbitrary: nativeFileDataPart },
        { weight: 2, arbitrary: nativeFunctionResponsePart },
      ),
      // Gemini refuses a turn with no parts.
      { minLength: 1, maxLength: 4 },
    ),
  },
  { requiredKeys: ["parts"] },
);

export const nativeModelContent: fc.Arbitrary<NativeContent> = fc.record({
  role: fc.constant("model" as const),
  parts: fc.array(
    fc.oneof(
      { weight: 4, arbitrary: nativeTextPart },
      { weight: 1, arbitrary: nativeThoughtPart },
      { weight: 2, arbitrary: nativeFunctionCallPart },
      { weight: 1, arbitrary: nativeInlineDataPart },
      { weight: 1, arbitrary: nativeFileDataPart },
    ),
    { minLength: 1, maxLength: 4 },
  ),
});

/** A JSON Schema object with the keywords the upstream's Schema object refuses, at any depth. */
export const dirtyJsonSchema: fc.Arbitrary<Record<string, unknown>> = fc.letrec((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.record(
      {
        type: fc.oneof(
          fc.constantFrom("string", "number", "integer", "boolean", "null", "STRING"),
          fc.constantFrom(["string", "null"], ["number", "string"], ["integer"]),
        ),
        description: text(12),
        format: fc.constantFrom("date-time", "email", "uri", "enum", "int32", "float"),
        const: fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.constant(null)),
        enum: fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.constant(null)), {
          minLength: 1,
          maxLength: 3,
        }),
        exclusiveMinimum: fc.integer(),
        exclusiveMaximum: fc.integer(),
        minimum: fc.integer(),
        examples: fc.array(fc.string({ maxLength: 5 }), { maxLength: 2 }),
        default: fc.string({ maxLength: 5 }),
        pattern: fc.constant("^[a-z]+$"),
        $comment: fc.string({ maxLength: 5 }),
        multipleOf: fc.constant(2),
        nullable: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
    fc.record(
      {
        type: fc.constantFrom("object", "OBJECT"),
        $schema: fc.constant("http://json-schema.org/draft-07/schema#"),
        properties: fc.dictionary(
          fc.oneof(identifier, fc.constantFrom("$ref", "additionalProperties", "const")),
          fc.oneof(tie("schema"), fc.boolean()),
          { maxKeys: 3 },
        ),
        required: fc.array(identifier, { maxLength: 2 }),
        additionalProperties: fc.oneof(fc.boolean(), tie("schema")),
        propertyNames: fc.record({ pattern: fc.constant("^[a-z]+$") }),
        patternProperties: fc.dictionary(fc.constant("^x"), tie("schema"), { maxKeys: 1 }),
        definitions: fc.dictionary(identifier, tie("schema"), { maxKeys: 2 }),
        $defs: fc.record({ node: tie("schema") }),
        title: text(8),
      },
      { requiredKeys: ["type"] },
    ),
    fc.record(
      {
        type: fc.constant("array"),
        items: fc.oneof(tie("schema"), fc.array(tie("schema"), { maxLength: 2 })),
        minItems: fc.nat(3),
        uniqueItems: fc.boolean(),
        contains: tie("schema"),
      },
      { requiredKeys: ["type"] },
    ),
    fc.record({ anyOf: fc.array(tie("schema"), { minLength: 1, maxLength: 2 }) }),
    fc.record({ oneOf: fc.array(tie("schema"), { minLength: 1, maxLength: 2 }) }),
    fc.record({ allOf: fc.array(tie("schema"), { minLength: 1, maxLength: 2 }) }),
    fc.record({ not: tie("schema") }),
    fc.constantFrom(
      { $ref: "#/$defs/node" },
      { $ref: "#/definitions/missing" },
      { $ref: "#" },
      { $ref: "https://example.com/schema.json" },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else keywords
      { if: { type: "string" }, then: { minLength: 1 }, else: { type: "number" } },
    ),
  ),
})).schema as fc.Arbitrary<Record<string, unknown>>;

/** A clean parameters schema in the upstream's own dialect (upper- or lowercase types). */
const geminiParameters = fc
  .tuple(
    fc.boolean(),
    fc.dictionary(
      identifier,
      fc.record(
        {
          type: fc.constantFrom("string", "number", "integer", "boolean"),
          description: text(12),
          nullable: fc.boolean(),
        },
        { requiredKeys: ["type"] },
      ),
      { maxKeys: 3 },
    ),
  )
  .map(([upper, properties]) => {
    const names = Object.keys(properties);
    const schema: Record<string, unknown> = {
      type: upper ? "OBJECT" : "object",
      properties: upper
        ? Object.fromEntries(
            Object.entries(properties).map(([k, v]) => [k, { ...v, type: v.type.toUpperCase() }]),
          )
        : properties,
    };
    if (names.length > 0) schema.required = names.slice(0, 1);
    return schema;
  });

const declaration: fc.Arbitrary<NativeFunctionDeclaration> = fc
  .tuple(
    identifier,
    maybe(text(20)),
    fc.oneof(
      { weight: 4, arbitrary: geminiParameters.map((parameters) => ({ parameters })) },
      { weight: 1, arbitrary: dirtyJsonSchema.map((parameters) => ({ parameters })) },
      {
        weight: 1,
        arbitrary: jsonObject.map((parametersJsonSchema) => ({ parametersJsonSchema })),
      },
      { weight: 1, arbitrary: fc.constant({}) },
    ),
    maybe(fc.constantFrom("BLOCKING", "NON_BLOCKING")),
  )
  .map(([name, description, schema, behavior]) =>
    compact({ name, description, ...schema, behavior }),
  );

const nativeToolEntry: fc.Arbitrary<NativeTool> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .array(declaration, { minLength: 1, maxLength: 3 })
      .map((functionDeclarations) => ({ functionDeclarations })),
  },
  fc.constant({ googleSearch: {} }),
  fc.record({
    googleSearch: fc.record({
      timeRangeFilter: fc.record({ startTime: fc.constant("2024-01-01T00:00:00Z") }),
    }),
  }),
  fc.constant({ codeExecution: {} }),
  fc.constant({ urlContext: {} }),
  fc.array(declaration, { minLength: 1, maxLength: 2 }).map((functionDeclarations) => ({
    functionDeclarations,
    googleSearch: {},
  })),
);

/** Function names are made unique per request: bookkeeping and result matching go by name. */
function uniqueFunctionNames(tools: NativeTool[]): NativeTool[] {
  let n = 0;
  return tools.map((tool) => {
    const declarations = tool.functionDeclarations as NativeFunctionDeclaration[] | undefined;
    if (!declarations) return tool;
    return {
      ...tool,
      functionDeclarations: declarations.map((d) => ({ ...d, name: `${d.name}_${n++}` })),
    };
  });
}

const thinkingConfig = fc.oneof(
  fc.record(
    { thinkingBudget: fc.constantFrom(-1, 0, 1024, 8192), includeThoughts: fc.boolean() },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      thinkingLevel: fc.constantFrom("minimal", "low", "medium", "high", "LOW", "HIGH"),
      includeThoughts: fc.boolean(),
    },
    { requiredKeys: ["thinkingLevel"] },
  ),
);

const responseFormatFields = fc.oneof(
  fc.constant({}),
  fc.constant({ responseMimeType: "text/plain" }),
  fc.constant({ responseMimeType: "application/json" }),
  geminiParameters.map((responseSchema) => ({
    responseMimeType: "application/json",
    responseSchema,
  })),
  jsonObject.map((responseJsonSchema) => ({
    responseMimeType: "application/json",
    responseJsonSchema,
  })),
  fc.constant({
    responseMimeType: "text/x.enum",
    responseSchema: { type: "STRING", enum: ["a", "b"] },
  }),
);

const decimal = (min: number, max: number) =>
  fc.integer({ min: min * 100, max: max * 100 }).map((n) => (n === 0 ? 0 : n / 100));

export const nativeGenerationConfig: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.record(
      {
        temperature: decimal(0, 2),
        topP: decimal(0, 1),
        topK: fc.integer({ min: 1, max: 100 }),
        maxOutputTokens: fc.integer({ min: 1, max: 65536 }),
        stopSequences: fc.array(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 5 }),
        candidateCount: fc.integer({ min: 1, max: 4 }),
        seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        presencePenalty: decimal(-2, 2),
        frequencyPenalty: decimal(-2, 2),
        thinkingConfig,
        responseModalities: fc.constant(["TEXT"]),
        mediaResolution: fc.constantFrom("MEDIA_RESOLUTION_LOW", "MEDIA_RESOLUTION_HIGH"),
        responseLogprobs: fc.boolean(),
        logprobs: fc.integer({ min: 0, max: 20 }),
      },
      { requiredKeys: [] },
    ),
    responseFormatFields,
  )
  .map(([config, format]) => ({ ...config, ...format }));

const nativeSafetySetting = fc.record({
  category: fc.constantFrom(...harmCategories, "HARM_CATEGORY_CIVIC_INTEGRITY"),
  threshold: fc.constantFrom(
    "BLOCK_NONE" as const,
    "BLOCK_ONLY_HIGH" as const,
    "BLOCK_MEDIUM_AND_ABOVE" as const,
    "BLOCK_LOW_AND_ABOVE" as const,
    "HARM_BLOCK_THRESHOLD_UNSPECIFIED" as const,
    "OFF" as const,
  ),
});

const toolConfig = fc.record(
  {
    functionCallingConfig: fc.record(
      {
        mode: fc.constantFrom(
          "AUTO" as const,
          "ANY" as const,
          "NONE" as const,
          "VALIDATED" as const,
          "MODE_UNSPECIFIED" as const,
        ),
        allowedFunctionNames: fc.array(identifier, { maxLength: 3 }),
        streamFunctionCallArguments: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
    retrievalConfig: fc.constant({ languageCode: "en" }),
  },
  { requiredKeys: [] },
);

/** snake_case spellings real clients send for the top-level fields and part payloads. */
const snakeTop: Readonly<Record<string, string>> = {
  generationConfig: "generation_config",
  systemInstruction: "system_instruction",
  safetySettings: "safety_settings",
  toolConfig: "tool_config",
  cachedContent: "cached_content",
};
const snakePart: Readonly<Record<string, string>> = {
  inlineData: "inline_data",
  fileData: "file_data",
  functionCall: "function_call",
  functionResponse: "function_response",
};

function snakeCase(body: Record<string, unknown>): Record<string, unknown> {
  const rename = (o: Record<string, unknown>, table: Readonly<Record<string, string>>) =>
    Object.fromEntries(Object.entries(o).map(([k, v]) => [table[k] ?? k, v]));
  const out = rename(body, snakeTop);
  out.contents = (body.contents as NativeContent[]).map((c) => ({
    ...c,
    parts: c.parts.map((p) => {
      const renamed = rename(p as Record<string, unknown>, snakePart);
      const media = (renamed.inline_data ?? renamed.file_data) as
        | Record<string, unknown>
        | undefined;
      if (media) {
        const key = renamed.inline_data ? "inline_data" : "file_data";
        renamed[key] = rename(media, { mimeType: "mime_type", fileUri: "file_uri" });
      }
      return renamed;
    }),
  }));
  return out;
}

/** A generate-content request body, covering every field (sometimes snake_case spelled). */
export const nativeRequestWire: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.record(
      {
        model: fc.constantFrom("models/gemini-2.5-pro", "gemini-3-pro-preview"),
        contents: fc.array(fc.oneof(nativeUserContent, nativeModelContent), {
          minLength: 1,
          maxLength: 5,
        }),
        systemInstruction: fc.record(
          {
            role: fc.constantFrom("system", "user"),
            parts: fc.array(
              fc.record({ text: text(), thoughtSignature: signature }, { requiredKeys: ["text"] }),
              { maxLength: 2 },
            ),
          },
          { requiredKeys: ["parts"] },
        ),
        generationConfig: nativeGenerationConfig,
        safetySettings: fc.array(nativeSafetySetting, { maxLength: 4 }),
        tools: fc.array(nativeToolEntry, { maxLength: 3 }).map(uniqueFunctionNames),
        toolConfig,
        cachedContent: identifier.map((id) => `cachedContents/${id}`),
        labels: fc.dictionary(identifier, identifier, { maxKeys: 2 }),
      },
      { requiredKeys: ["contents"] },
    ),
    fc.boolean(),
  )
  .map(([body, snake]) => (snake ? snakeCase(body) : body));

// ---- responses -------------------------------------------------------------------------------

const nativeSafetyRating: fc.Arbitrary<NativeSafetyRating> = fc.record(
  {
    category: fc.constantFrom(...harmCategories),
    probability: fc.constantFrom(
      "NEGLIGIBLE" as const,
      "LOW" as const,
      "MEDIUM" as const,
      "HIGH" as const,
    ),
    blocked: fc.boolean(),
  },
  { requiredKeys: ["category", "probability"] },
);

export const nativeUsageMetadata: fc.Arbitrary<NativeUsageMetadata> = fc
  .record({
    prompt: fc.nat(100_000),
    cached: fc.nat(100_000),
    candidates: fc.nat(100_000),
    thoughts: fc.nat(10_000),
    details: fc.boolean(),
    tier: maybe(fc.constantFrom("standard", "priority")),
    extra: fc.nat(50),
  })
  .map(({ prompt, cached, candidates, thoughts, details, tier, extra }) => {
    const input = prompt + cached;
    return compact({
      promptTokenCount: input,
      candidatesTokenCount: candidates,
      // Totals may count tool-use prompt tokens the canonical usage does not keep.
      totalTokenCount: input + candidates + thoughts + extra,
      thoughtsTokenCount: thoughts > 0 ? thoughts : undefined,
      cachedContentTokenCount: cached > 0 ? cached : undefined,
      promptTokensDetails: details ? [{ modality: "TEXT", tokenCount: input }] : undefined,
      serviceTier: tier,
    });
  });

const modelParts = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: nativeTextPart.map(({ cache_control: _c, ...p }) => p) },
    { weight: 1, arbitrary: nativeThoughtPart },
    { weight: 2, arbitrary: nativeFunctionCallPart.map(({ cache_control: _c, ...p }) => p) },
    { weight: 1, arbitrary: nativeInlineDataPart.map(({ cache_control: _c, ...p }) => p) },
  ),
  { maxLength: 4 },
);

/** One token of a logprobsResult; proto3 JSON may leave out any zero value. */
const nativeLogprobsToken = fc.record(
  {
    token: fc.string({ maxLength: 6 }),
    tokenId: fc.nat({ max: 300_000 }),
    logProbability: logprobValue,
  },
  { requiredKeys: [] },
);
/** A candidate's logprobsResult: one chosen token per step, with or without top candidates. */
export const nativeLogprobsResult = fc
  .record({
    chosen: fc.array(nativeLogprobsToken, { maxLength: 4 }),
    top: fc.option(fc.array(fc.array(nativeLogprobsToken, { maxLength: 3 }), { maxLength: 4 }), {
      nil: undefined,
    }),
    sum: fc.option(logprobValue, { nil: undefined }),
  })
  .map(({ chosen, top, sum }) => ({
    chosenCandidates: chosen,
    ...(top === undefined ? {} : { topCandidates: top.map((candidates) => ({ candidates })) }),
    ...(sum === undefined ? {} : { logProbabilitySum: sum }),
  }));

export const nativeResponseWire: fc.Arbitrary<NativeResponseWire> = fc
  .record(
    {
      candidates: fc.array(
        fc.record(
          {
            content: fc.record({ role: fc.constant("model"), parts: modelParts }),
            finishReason: fc.constantFrom(...Object.keys(nativeFinishReasonTable), "NEW_REASON"),
            safetyRatings: fc.array(nativeSafetyRating, { maxLength: 4 }),
            finishMessage: fc.constant("Model generated function call(s)."),
            logprobsResult: nativeLogprobsResult,
            avgLogprobs: logprobValue,
            hasIndex: fc.boolean(),
          },
          { requiredKeys: ["hasIndex"] },
        ),
        { maxLength: 3 },
      ),
      promptFeedback: fc.record(
        {
          blockReason: fc.constantFrom("SAFETY", "OTHER", "BLOCKLIST", "PROHIBITED_CONTENT"),
          safetyRatings: fc.array(nativeSafetyRating, { maxLength: 4 }),
        },
        { requiredKeys: [] },
      ),
      usageMetadata: nativeUsageMetadata,
      modelVersion: fc.constantFrom("gemini-2.5-pro", "gemini-3-pro-preview"),
      responseId: identifier,
      createTime: fc
        .integer({ min: 1_600_000_000, max: 2_000_000_000 })
        .map((s) => new Date(s * 1000).toISOString().replace(".000Z", ".264968Z")),
    },
    { requiredKeys: [] },
  )
  .map((body) => {
    if (body.candidates === undefined) return body as NativeResponseWire;
    return {
      ...body,
      candidates: body.candidates.map(({ hasIndex, ...c }, i) =>
        hasIndex ? { ...c, index: i } : c,
      ),
    } as NativeResponseWire;
  });

/**
 * The chunks of a streamed reply: each part's text split into fragments, a signature on an empty
 * text part at the end (as Gemini 3 sends it), usageMetadata on every chunk growing to the final
 * count, whole function calls, and the finishReason on the last chunk.
 */
export const nativeStreamChunks: fc.Arbitrary<Record<string, unknown>[]> = fc
  .record({
    texts: fc.array(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 4 }),
    thoughts: fc.array(fc.string({ minLength: 1, maxLength: 12 }), { maxLength: 2 }),
    call: maybe(fc.record({ name: identifier, args: jsonObject })),
    signature: maybe(signature),
    usage: nativeUsageMetadata,
    responseId: identifier,
  })
  .map(({ texts, thoughts, call, signature: sig, usage, responseId }) => {
    const chunk = (parts: NativePart[], extra: Record<string, unknown> = {}) => ({
      candidates: [{ content: { role: "model", parts }, index: 0, ...extra }],
      usageMetadata: usage,
      modelVersion: "gemini-3-pro-preview",
      responseId,
    });
    const chunks: Record<string, unknown>[] = [];
    for (const t of thoughts) chunks.push(chunk([{ text: t, thought: true }]));
    for (const t of texts) chunks.push(chunk([{ text: t }]));
    if (sig !== undefined) chunks.push(chunk([{ text: "", thoughtSignature: sig }]));
    if (call !== undefined) chunks.push(chunk([{ functionCall: call }]));
    chunks.push(chunk([{ text: "" }], { finishReason: "STOP" }));
    return chunks;
  });

// Law 1's normal forms: what a same-format parse + render changes (test oracles, not converters).
export { normalizeNativeRequest, normalizeNativeResponse } from "./normalize-native.js";
export type { NativeRequestWire };
