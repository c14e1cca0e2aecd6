/**
 * fast-check arbitraries for every canonical type. Every generated value passes its zod schema
 * (a property test in this package proves it), so format packages can build their laws on them.
 * Optional keys are omitted rather than set to undefined (exactOptionalPropertyTypes).
 */
import fc from "fast-check";
import type { CacheControl } from "./cache-control.js";
import type {
  AssistantPart,
  FilePart,
  ImagePart,
  ImageSource,
  RedactedThinkingPart,
  TextPart,
  ThinkingPart,
  ToolCallPart,
  ToolResultPart,
  UserPart,
} from "./content-part.js";
import type { FinishReason } from "./finish-reason.js";
import type { LogprobCandidate, OutputLogprobs, TokenLogprob } from "./logprobs.js";
import type { AssistantMessage, Message, ToolMessage, UserMessage } from "./message.js";
import type { Request } from "./request.js";
import type { Alternative, IndexedOutput, Response } from "./response.js";
import type { ResponseFormat } from "./response-format.js";
import { withOutputs } from "./response-outputs.js";
import { responseToEvents } from "./response-to-events.js";
import type { PromptFeedback, SafetyRating, SafetySetting } from "./safety.js";
import { harmCategories } from "./safety.js";
import type { Sampling } from "./sampling.js";
import type { StreamEvent } from "./stream-event.js";
import type { ThinkingConfig } from "./thinking-config.js";
import type { Tool, ToolChoice } from "./tool.js";
import type { Usage } from "./usage.js";

export { frameTapOracle, wireJson } from "./frame-tap-oracle.js";
export {
  ARGUMENT_FRAGMENTS,
  assertNoHalfJson,
  decodeGuarded,
  noHalfJsonProperty,
} from "./stream-fuzz.js";
export { zodObjectFieldPaths } from "./zod-field-paths.js";
export { fc };

/** Text with arbitrary unicode, biased towards short values. */
export const text = (maxLength = 40) => fc.string({ unit: "grapheme", maxLength });
export const nonEmptyText = (maxLength = 40) =>
  fc.string({ unit: "grapheme", minLength: 1, maxLength });
/** Identifiers as upstreams issue them. */
export const identifier = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,23}$/);
/** Decimal numbers with at most two places, in [min, max]; JSON-exact and never -0. */
export const decimal = (min: number, max: number) =>
  fc
    .integer({ min: Math.round(min * 100), max: Math.round(max * 100) })
    .map((n) => (n === 0 ? 0 : n / 100));
export const tokenCount = fc.nat({ max: 2_000_000 });
export const base64 = fc
  .uint8Array({ minLength: 1, maxLength: 24 })
  .map((bytes) => btoa(String.fromCharCode(...bytes)));
let webUrl: fc.Arbitrary<string> | undefined;
/**
 * http(s) URLs. fast-check's `webUrl` takes about 1.5 s of CPU to build (its domain and
 * percent-encoding tables), so it is built the first time a URL is drawn, not when this module
 * is imported: most importers never draw one.
 */
export const httpUrl: fc.Arbitrary<string> = fc
  .constant(undefined)
  .chain(() => (webUrl ??= fc.webUrl({ validSchemes: ["https", "http"] })));
export const imageMediaType = fc.constantFrom("image/jpeg", "image/png", "image/gif", "image/webp");
/** JSON objects as a wire carries them: through JSON text, so never a -0 (which reads back as 0). */
export const jsonObject: fc.Arbitrary<Record<string, unknown>> = fc
  .dictionary(identifier, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 })
  .map((value) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>);
/** A JSON-encoded arguments object, "{}" included. */
export const argumentsJson = fc
  .dictionary(identifier, fc.oneof(fc.string(), fc.integer(), fc.boolean()), { maxKeys: 3 })
  .map((o) => JSON.stringify(o));

export const cacheControl: fc.Arbitrary<CacheControl> = fc.record(
  { type: fc.constant("ephemeral" as const), ttl: fc.constantFrom("5m" as const, "1h" as const) },
  { requiredKeys: ["type"] },
);

export const textPart: fc.Arbitrary<TextPart> = fc.record(
  { type: fc.constant("text" as const), text: text(), cacheControl, signature: base64 },
  { requiredKeys: ["type", "text"] },
);
export const imageSource: fc.Arbitrary<ImageSource> = fc.oneof(
  fc.record({ type: fc.constant("url" as const), url: httpUrl }),
  fc.record({ type: fc.constant("base64" as const), mediaType: imageMediaType, data: base64 }),
);
export const imagePart: fc.Arbitrary<ImagePart> = fc.record(
  {
    type: fc.constant("image" as const),
    source: imageSource,
    detail: fc.constantFrom("auto" as const, "low" as const, "high" as const),
    cacheControl,
  },
  { requiredKeys: ["type", "source"] },
);
export const filePart: fc.Arbitrary<FilePart> = fc.record(
  {
    type: fc.constant("file" as const),
    source: fc.oneof(
      fc.record(
        {
          type: fc.constant("url" as const),
          url: httpUrl,
          mediaType: fc.constant("application/pdf"),
        },
        { requiredKeys: ["type", "url"] },
      ),
      fc.record({
        type: fc.constant("base64" as const),
        mediaType: fc.constant("application/pdf"),
        data: base64,
      }),
      fc.record({ type: fc.constant("file-id" as const), fileId: identifier }),
    ),
    filename: nonEmptyText(20),
    cacheControl,
  },
  { requiredKeys: ["type", "source"] },
);
export const toolCallPart: fc.Arbitrary<ToolCallPart> = fc.record(
  {
    type: fc.constant("tool-call" as const),
    id: identifier,
    name: identifier,
    arguments: argumentsJson,
    signature: base64,
    cacheControl,
  },
  { requiredKeys: ["type", "id", "name", "arguments"] },
);
export const toolResultPart: fc.Arbitrary<ToolResultPart> = fc.record(
  {
    type: fc.constant("tool-result" as const),
    toolCallId: identifier,
    name: identifier,
    content: fc.array(fc.oneof(textPart, imagePart), { maxLength: 3 }),
    isError: fc.boolean(),
    cacheControl,
  },
  { requiredKeys: ["type", "toolCallId", "content"] },
);
export const thinkingPart: fc.Arbitrary<ThinkingPart> = fc.record(
  { type: fc.constant("thinking" as const), text: text(), signature: base64 },
  { requiredKeys: ["type", "text"] },
);
export const redactedThinkingPart: fc.Arbitrary<RedactedThinkingPart> = fc.record({
  type: fc.constant("redacted-thinking" as const),
  data: base64,
});

export const userPart: fc.Arbitrary<UserPart> = fc.oneof(
  { weight: 4, arbitrary: textPart },
  { weight: 1, arbitrary: imagePart },
  { weight: 1, arbitrary: filePart },
);
export const assistantPart: fc.Arbitrary<AssistantPart> = fc.oneof(
  { weight: 4, arbitrary: textPart },
  { weight: 2, arbitrary: toolCallPart },
  { weight: 1, arbitrary: thinkingPart },
  { weight: 1, arbitrary: redactedThinkingPart },
);

export const userMessage: fc.Arbitrary<UserMessage> = fc.record(
  {
    role: fc.constant("user" as const),
    parts: fc.array(userPart, { minLength: 1, maxLength: 4 }),
    name: identifier,
  },
  { requiredKeys: ["role", "parts"] },
);
export const assistantMessage: fc.Arbitrary<AssistantMessage> = fc.record(
  {
    role: fc.constant("assistant" as const),
    parts: fc.array(assistantPart, { minLength: 1, maxLength: 4 }),
    name: identifier,
  },
  { requiredKeys: ["role", "parts"] },
);
export const toolMessage: fc.Arbitrary<ToolMessage> = fc.record({
  role: fc.constant("tool" as const),
  parts: fc.array(toolResultPart, { minLength: 1, maxLength: 3 }),
});
export const message: fc.Arbitrary<Message> = fc.oneof(userMessage, assistantMessage, toolMessage);

export const sampling: fc.Arbitrary<Sampling> = fc.record(
  {
    temperature: decimal(0, 2),
    topP: decimal(0, 1),
    topK: fc.integer({ min: 1, max: 500 }),
    maxTokens: fc.integer({ min: 1, max: 128_000 }),
    stop: fc.array(nonEmptyText(8), { minLength: 1, maxLength: 4 }),
    frequencyPenalty: decimal(-2, 2),
    presencePenalty: decimal(-2, 2),
    seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    n: fc.integer({ min: 1, max: 4 }),
  },
  { requiredKeys: [] },
);

export const tool: fc.Arbitrary<Tool> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record(
      {
        type: fc.constant("function" as const),
        name: identifier,
        description: text(),
        parameters: fc.record({
          type: fc.constant("object"),
          properties: fc.dictionary(
            identifier,
            fc.record({ type: fc.constantFrom("string", "number", "boolean") }),
            {
              maxKeys: 3,
            },
          ),
        }),
        strict: fc.boolean(),
        cacheControl,
      },
      { requiredKeys: ["type", "name", "parameters"] },
    ),
  },
  fc.record(
    { type: fc.constant("web_search" as const), options: jsonObject },
    { requiredKeys: ["type"] },
  ),
  fc.record(
    { type: fc.constant("file_search" as const), options: jsonObject },
    { requiredKeys: ["type"] },
  ),
  fc.record(
    {
      type: fc.constant("remote_mcp" as const),
      url: httpUrl,
      authToken: nonEmptyText(),
      timeout: fc.integer({ min: 1, max: 600 }),
    },
    { requiredKeys: ["type", "url", "timeout"] },
  ),
  fc.record({
    type: fc.constant("provider" as const),
    provider: fc.constantFrom("openai" as const, "anthropic" as const, "gemini" as const),
    name: identifier,
    options: jsonObject,
  }),
);

const allowedTools = fc.uniqueArray(identifier, { minLength: 1, maxLength: 3 });

export const toolChoice: fc.Arbitrary<ToolChoice> = fc.oneof(
  fc.record(
    { type: fc.constant("auto" as const), allowed: allowedTools },
    { requiredKeys: ["type"] },
  ),
  fc.constant({ type: "none" as const }),
  fc.record(
    { type: fc.constant("required" as const), allowed: allowedTools },
    { requiredKeys: ["type"] },
  ),
  fc.record({ type: fc.constant("tool" as const), name: identifier }),
);

export const thinkingConfig: fc.Arbitrary<ThinkingConfig> = fc.record(
  {
    type: fc.constantFrom("enabled" as const, "disabled" as const, "adaptive" as const),
    budgetTokens: fc.integer({ min: 1024, max: 64_000 }),
    effort: fc.constantFrom("minimal" as const, "low" as const, "medium" as const, "high" as const),
    includeThoughts: fc.boolean(),
  },
  { requiredKeys: ["type"] },
);

export const responseFormat: fc.Arbitrary<ResponseFormat> = fc.oneof(
  fc.constant({ type: "text" as const }),
  fc.constant({ type: "json-object" as const }),
  fc.record(
    {
      type: fc.constant("json-schema" as const),
      name: identifier,
      schema: jsonObject,
      strict: fc.boolean(),
    },
    { requiredKeys: ["type", "schema"] },
  ),
);

export const safetySetting: fc.Arbitrary<SafetySetting> = fc.record({
  category: fc.constantFrom(...harmCategories),
  threshold: fc.constantFrom(
    "BLOCK_NONE" as const,
    "BLOCK_ONLY_HIGH" as const,
    "BLOCK_MEDIUM_AND_ABOVE" as const,
    "BLOCK_LOW_AND_ABOVE" as const,
  ),
});
export const safetyRating: fc.Arbitrary<SafetyRating> = fc.record(
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
export const promptFeedback: fc.Arbitrary<PromptFeedback> = fc.record(
  {
    blockReason: fc.constantFrom("SAFETY", "OTHER", "BLOCKLIST", "PROHIBITED_CONTENT"),
    safetyRatings: fc.array(safetyRating, { maxLength: 4 }),
  },
  { requiredKeys: [] },
);

/** A log probability: at most 0, a short decimal (never -0, which JSON cannot tell from 0). */
export const logprobValue: fc.Arbitrary<number> = fc
  .integer({ min: -400_000, max: 0 })
  .map((n) => (n === 0 ? 0 : n / 10_000));
export const logprobCandidate: fc.Arbitrary<LogprobCandidate> = fc.record(
  {
    token: fc.string({ maxLength: 8 }),
    logprob: logprobValue,
    bytes: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 4 }),
    tokenId: fc.nat({ max: 300_000 }),
  },
  { requiredKeys: ["token", "logprob"] },
);
export const tokenLogprob: fc.Arbitrary<TokenLogprob> = fc
  .tuple(logprobCandidate, fc.array(logprobCandidate, { maxLength: 3 }))
  .map(([token, topLogprobs]) => ({ ...token, topLogprobs }));
export const outputLogprobs: fc.Arbitrary<OutputLogprobs> = fc.record(
  { content: fc.array(tokenLogprob, { maxLength: 4 }), average: logprobValue },
  { requiredKeys: ["content"] },
);

export const request: fc.Arbitrary<Request> = fc.record(
  {
    model: fc.constantFrom("txtA-5", "txtB-sonnet-4-6", "txtC-2.5-pro", "txtD-v3.2"),
    system: fc.array(textPart, { maxLength: 2 }),
    messages: fc.array(message, { minLength: 1, maxLength: 6 }),
    sampling,
    tools: fc.array(tool, { maxLength: 3 }),
    toolChoice,
    parallelToolCalls: fc.boolean(),
    thinking: thinkingConfig,
    responseFormat,
    stream: fc.boolean(),
    logprobs: fc.boolean(),
    topLogprobs: fc.integer({ min: 0, max: 20 }),
    user: identifier,
    // Never an empty bag: a parser writes providerExtras only when it has something to hold.
    providerExtras: fc
      .record(
        {
          gemini: fc
            .record(
              {
                cachedContent: identifier.map((id) => `cachedContents/${id}`),
                safetySettings: fc.array(safetySetting, { maxLength: 4 }),
              },
              { requiredKeys: [] },
            )
            .filter((gemini) => Object.keys(gemini).length > 0),
          openai: fc.record({ includeUsage: fc.boolean() }),
        },
        { requiredKeys: [] },
      )
      .filter((extras) => Object.keys(extras).length > 0),
    metadata: jsonObject,
  },
  { requiredKeys: ["model", "system", "messages", "sampling", "tools", "stream"] },
);

export const unifiedFinishReasons = [
  "stop",
  "length",
  "tool-calls",
  "content-filter",
  "error",
  "other",
] as const;
export const finishReason: fc.Arbitrary<FinishReason> = fc.record(
  { unified: fc.constantFrom(...unifiedFinishReasons), raw: identifier },
  { requiredKeys: ["unified"] },
);

/** Usage whose parts are consistent subsets of the totals, as every upstream reports them. */
export const usage: fc.Arbitrary<Usage> = fc
  .record({
    cached: tokenCount,
    write5m: fc.nat({ max: 100_000 }),
    write1h: fc.nat({ max: 100_000 }),
    fresh: tokenCount,
    thinking: tokenCount,
    visible: tokenCount,
    split: fc.boolean(),
  })
  .map(({ cached, write5m, write1h, fresh, thinking, visible, split }): Usage => {
    const out: Usage = {
      inputTokens: cached + write5m + write1h + fresh,
      outputTokens: thinking + visible,
      cachedInputTokens: cached,
      cacheWriteTokens: write5m + write1h,
      thinkingTokens: thinking,
    };
    if (split) {
      out.cacheWrite5mTokens = write5m;
      out.cacheWrite1hTokens = write1h;
    }
    return out;
  });

/** Assistant output as upstreams produce it: no image or file parts, no name. */
export const assistantOutput: fc.Arbitrary<AssistantMessage> = fc.record({
  role: fc.constant("assistant" as const),
  parts: fc.array(
    fc.oneof(
      { weight: 4, arbitrary: textPart.map(withoutCacheControl) },
      { weight: 2, arbitrary: toolCallPart.map(withoutCacheControl) },
      { weight: 1, arbitrary: thinkingPart },
      { weight: 1, arbitrary: redactedThinkingPart },
    ),
    { maxLength: 4 },
  ),
});

function withoutCacheControl<P extends { cacheControl?: CacheControl }>(part: P): P {
  const { cacheControl: _dropped, ...rest } = part;
  return rest as P;
}

/** One output with its provider extras; its index is set where it is placed. */
const indexedOutput: fc.Arbitrary<IndexedOutput> = fc.record(
  {
    index: fc.constant(0),
    message: assistantOutput,
    finishReason,
    stopSequence: nonEmptyText(8),
    logprobs: outputLogprobs,
    providerExtras: fc
      .array(safetyRating, { maxLength: 4 })
      .map((safetyRatings) => ({ gemini: { safetyRatings } })),
  },
  { requiredKeys: ["index", "message", "finishReason"] },
);

export const alternative: fc.Arbitrary<Alternative> = fc
  .tuple(indexedOutput, fc.integer({ min: 1, max: 3 }))
  .map(([output, index]) => ({ ...output, index }));

/** A response with its primary output and, sometimes, up to two alternatives (indices 1, 2). */
export const response: fc.Arbitrary<Response> = fc
  .tuple(
    fc.record(
      {
        id: identifier,
        model: fc.constantFrom("txtA-5", "txtB-sonnet-4-6", "txtC-2.5-pro", "txtD-v3.2"),
        created: fc.integer({ min: 1_600_000_000, max: 2_000_000_000 }),
        usage,
        providerExtras: promptFeedback.map((feedback) => ({
          gemini: { promptFeedback: feedback },
        })),
      },
      { requiredKeys: ["id", "model", "created", "usage"] },
    ),
    fc.array(indexedOutput, { minLength: 1, maxLength: 3 }),
  )
  .map(([base, outputs]) =>
    withOutputs(
      base,
      outputs.map((output, index) => ({ ...output, index })),
      undefined,
      String,
    ),
  );

/** A well-formed event sequence: the events of a generated response, as a stream would carry them. */
export const streamEvents = (
  responses: fc.Arbitrary<Response> = response,
): fc.Arbitrary<StreamEvent[]> => responses.map((r) => responseToEvents(r));

/**
 * JSON number text a double changes: 64-bit integers and long decimals (another value), and
 * `-0`, `1.0`, `1E2`, `2e+3`, `0.0000001` (the same value, written back with another text).
 */
export const exactJsonNumber: fc.Arbitrary<string> = fc.oneof(
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n }).map(String),
  fc
    .tuple(fc.integer({ min: 0, max: 1_000_000 }), fc.stringMatching(/^\d{15,24}[1-9]$/))
    .map(([whole, fraction]) => `${whole}.${fraction}`),
  fc.constantFrom("-0", "-0.0", "1E2", "2e+3", "1e-7", "0.0000001"),
  fc
    .tuple(fc.integer({ min: -999, max: 999 }), fc.stringMatching(/^\d{0,3}0$/))
    .map(([whole, fraction]) => `${whole}.${fraction}`),
);

/**
 * Tool-call arguments of one to four such numbers (`{"k0":12345678901234567890,...}`): what a
 * codec must carry byte for byte through its wire objects (`input`, `args`) and back.
 */
export const exactArgumentsJson: fc.Arbitrary<string> = fc
  .array(exactJsonNumber, { minLength: 1, maxLength: 4 })
  .map((numbers) => `{${numbers.map((n, i) => `"k${i}":${n}`).join(",")}}`);

/**
 * `value` without the named providers' extras, and without `providerExtras` once nothing is left
 * in it (parsers never write an empty bag): what a format that does not carry them gives back.
 */
export function withoutProviderExtras<T extends { providerExtras?: object }>(
  value: T,
  ...providers: string[]
): T {
  if (value.providerExtras === undefined) return value;
  const kept = Object.fromEntries(
    Object.entries(value.providerExtras).filter(([provider]) => !providers.includes(provider)),
  );
  const { providerExtras: _all, ...rest } = value;
  return (Object.keys(kept).length > 0 ? { ...rest, providerExtras: kept } : rest) as T;
}

/**
 * A frozen deep copy of a wire body: a parser that writes into the body it reads (which, on the
 * fast path, the parsed data shares) throws on it.
 */
export function deepFrozen<T>(value: T): T {
  const freeze = (item: unknown): unknown => {
    if (typeof item !== "object" || item === null) return item;
    for (const child of Object.values(item)) freeze(child);
    return Object.freeze(item);
  };
  return freeze(structuredClone(value)) as T;
}

// ---------- reply usage readers (Protocol.replyUsage) ----------

/** Values a lying or broken upstream may put where a token count, tier or usage object goes. */
export const hostileWireValue: fc.Arbitrary<unknown> = fc.constantFrom<unknown>(
  -1,
  1.5,
  "12",
  2 ** 53,
  1e300,
  Number.NaN,
  null,
  true,
  {},
  [],
  [3],
  [{ modality: "TEXT" }],
  undefined,
  0,
  7,
  "flex",
);

/** A copy of `wire` with the value at `path` replaced (objects made where they are missing). */
export function withValueAt(wire: unknown, path: readonly string[], value: unknown): unknown {
  const copy = structuredClone(wire) as Record<string, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) {
    const next = at[key];
    if (typeof next !== "object" || next === null) at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  at[path.at(-1) as string] = value;
  return copy;
}

/** The usage a codec's full parse makes of a reply: undefined when it throws or reports none. */
export function parsedReplyUsage(
  parse: (wire: unknown) => Response,
  wire: unknown,
): Response["usage"] | undefined {
  try {
    const usage = parse(wire).usage;
    return usage.known === false ? undefined : usage;
  } catch {
    return undefined;
  }
}
