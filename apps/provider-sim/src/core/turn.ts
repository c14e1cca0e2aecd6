// The neutral view of a chat request that the three protocols' readers produce: just what the
// simulator needs to decide its reply and count tokens.

/**
 * A declared tool. Responses API extras: `namespace` for a tool inside a namespace tool (its calls
 * carry it), `custom` for a free-form tool (its call has raw `input`, not JSON arguments).
 */
export type ToolSpec = { name: string; schema: unknown; namespace?: string; custom?: true };

export type ToolChoice =
  | { kind: "auto" }
  | { kind: "none" }
  | { kind: "any" }
  | { kind: "named"; name: string };

/** `visible`: the protocol returns the thinking text; `hidden`: only its tokens are counted. */
export type ThinkingMode = "off" | "hidden" | "visible";

export type Turn = {
  model: string;
  /** Text of the last user message; directives are read from it. */
  userText: string;
  /** Set when the final message carries tool results: the reply then echoes them, never calls tools. */
  toolResultText: string | undefined;
  /** Characters of prompt text (system, messages, tool calls and results, tool declarations). */
  promptChars: number;
  /** Images, audio and files in the prompt. */
  mediaParts: number;
  /**
   * Tokens of an explicit cache the request names (Gemini cachedContent): not in its own text, so
   * they are added to the prompt count and reported as read from the cache. Anthropic and OpenAI
   * cache parts of the prompt text itself and leave this at 0.
   */
  cachedTokens: number;
  tools: ToolSpec[];
  toolChoice: ToolChoice;
  thinking: ThinkingMode;
  /** Whether this protocol and model return thinking text at all (OpenAI models other than DeepSeek-style do not). */
  showsThinking: boolean;
  maxTokens: number | undefined;
  choices: number;
  /**
   * A JSON Schema the answer must follow (structured output: chat `response_format`, Responses
   * `text.format`, Anthropic `output_config.format`, Gemini `responseJsonSchema`/`responseSchema`):
   * the answer is then a JSON value sampled from it.
   */
  outputSchema?: unknown;
};

export const MAX_CHOICES = 16;

export function choiceCount(requested: number | undefined): number {
  return Math.min(MAX_CHOICES, Math.max(1, Math.floor(requested ?? 1)));
}
