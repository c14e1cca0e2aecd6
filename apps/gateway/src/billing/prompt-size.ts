import { findTooDeep, type Part, type Request, type Tool } from "@interlingua/core-types";
import { invalidRequest } from "@interlingua/errors";

/** What a prompt carries, counted once, for the two prompt-token estimates below. */
export interface PromptSize {
  /** UTF-16 code units of every text the prompt carries (system, messages, tool calls, tools). */
  readonly chars: number;
  /** UTF-8 bytes of the same text. */
  readonly bytes: number;
  /** System parts and messages: each is wrapped in a few formatting tokens upstream. */
  readonly turns: number;
  readonly images: number;
  /** Files: PDFs, audio, video, by URL, data or file id. */
  readonly files: number;
  /** Function tools (their JSON is counted in chars and bytes too). */
  readonly functionTools: number;
  /** Tools that run at the provider (web search, file search, remote MCP, provider tools). */
  readonly serverTools: number;
  /** Whether any part or tool carries `cacheControl` (its tokens may be billed as cache writes). */
  readonly cacheMarked: boolean;
}

// --- The likely estimate: what a prompt probably costs, charged when an upstream that delivered
// reports no usage. Four characters a token is the usual rule of thumb of every provider for
// English text; about 1k tokens covers a typical image or short file.
export const CHARS_PER_TOKEN = 4;
const LIKELY_MEDIA_TOKENS = 1_000;

/** Prompt tokens a call probably used: four characters a token, 1,000 per image or file. */
export function likelyPromptTokens(size: PromptSize): number {
  return Math.ceil(size.chars / CHARS_PER_TOKEN) + (size.images + size.files) * LIKELY_MEDIA_TOKENS;
}

// The hold is an upper bound on what a prompt can cost: only media or tool results above these
// caps can cost more (the README's overdraft bound).
export const PROMPT_BOUND = {
  // Every provider's tokenizer is byte-level: a token covers at least one UTF-8 byte.
  tokensPerByte: 1,
  // Formatting tokens (OpenAI documents 3-4 a message).
  tokensPerTurn: 16,
  tokensPerRequest: 64,
  // Its rendering, plus on Anthropic a tool-use system prompt (346 tokens at most).
  tokensPerFunctionTool: 1_000,
  // Search results, MCP output: no published formula.
  tokensPerServerTool: 50_000,
  // Claude's high-resolution image is about 4,800; OpenAI's stay under 2,500, Gemini's 1,200.
  tokensPerImage: 6_000,
  // No formula (PDFs bill per page, video per second): about 380 PDF pages or 6 min on Gemini.
  tokensPerFile: 100_000,
} as const;

/** The most prompt tokens the call can be billed for (see PROMPT_BOUND). */
export function maxPromptTokens(size: PromptSize): number {
  const b = PROMPT_BOUND;
  return (
    size.bytes * b.tokensPerByte +
    size.turns * b.tokensPerTurn +
    b.tokensPerRequest +
    size.functionTools * b.tokensPerFunctionTool +
    size.serverTools * b.tokensPerServerTool +
    size.images * b.tokensPerImage +
    size.files * b.tokensPerFile
  );
}

interface Tally {
  chars: number;
  bytes: number;
  images: number;
  files: number;
  cacheMarked: boolean;
}

const addText = (tally: Tally, text: string) => {
  tally.chars += text.length;
  // Equal for ASCII; only text beyond it needs the exact byte count.
  tally.bytes += Buffer.byteLength(text, "utf8");
};

/** What each part adds to the tally, by part type. */
const PART_SIZE: { [K in Part["type"]]: (tally: Tally, part: Extract<Part, { type: K }>) => void } =
  {
    text: (t, p) => addText(t, p.text),
    thinking: (t, p) => addText(t, p.text),
    "redacted-thinking": (t, p) => addText(t, p.data),
    "tool-call": (t, p) => {
      addText(t, p.name);
      addText(t, p.arguments);
    },
    "tool-result": (t, p) => {
      for (const item of p.content) {
        if (item.type === "text") addText(t, item.text);
        else t.images++;
        if (item.cacheControl !== undefined) t.cacheMarked = true;
      }
    },
    image: (t) => {
      t.images++;
    },
    file: (t) => {
      t.files++;
    },
  };

const isServerTool = (tool: Tool) => tool.type !== "function";

/**
 * A tool as JSON, for its size. `JSON.stringify` recurses: a tool nested past MAX_JSON_DEPTH (the
 * gateway refuses such bodies at parse; this guards any other caller) is a 400, not a stack
 * overflow (issue 15, item 6).
 */
function toolJson(tool: Tool): string {
  const deep = findTooDeep(tool);
  if (deep !== undefined) throw invalidRequest(`tools: nested too deeply at ${deep}`, "tools");
  return JSON.stringify(tool);
}

/** Counts what the prompt carries: one pass over system, messages and tools. */
export function measurePrompt(request: Request): PromptSize {
  const tally: Tally = { chars: 0, bytes: 0, images: 0, files: 0, cacheMarked: false };
  for (const part of request.system) {
    addText(tally, part.text);
    if (part.cacheControl !== undefined) tally.cacheMarked = true;
  }
  for (const message of request.messages) {
    for (const part of message.parts) {
      (PART_SIZE[part.type] as (tally: Tally, part: Part) => void)(tally, part);
      if ("cacheControl" in part && part.cacheControl !== undefined) tally.cacheMarked = true;
    }
  }
  let serverTools = 0;
  for (const tool of request.tools) {
    addText(tally, toolJson(tool));
    if (isServerTool(tool)) serverTools++;
    if ("cacheControl" in tool && tool.cacheControl !== undefined) tally.cacheMarked = true;
  }
  return {
    chars: tally.chars,
    bytes: tally.bytes,
    turns: request.system.length + request.messages.length,
    images: tally.images,
    files: tally.files,
    functionTools: request.tools.length - serverTools,
    serverTools,
    cacheMarked: tally.cacheMarked,
  };
}
