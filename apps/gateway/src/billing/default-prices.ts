import type { ModelPrice } from "../config/config-schema.ts";

// Defaults in USD for every model id of docs/api-reference.md, from the providers' public list prices for the
// model each family tag stands for (per 1M tokens unless the key says otherwise), and each
// model's published maximum output per reply (`max_output_tokens`: what a call that names no
// max tokens holds, so the hold covers the most the call can cost). The config's `pricing` table
// overrides a model's entry key by key. Documented in the gateway README.
const gpt = (input: number, output: number, cached: number, maxOutput: number): ModelPrice => ({
  input,
  output,
  cached_input: cached,
  cache_write: 0,
  max_output_tokens: maxOutput,
});
// Anthropic writes: 1.25x input for the 5-minute ttl, 2x for 1 hour; reads 0.1x.
const claude = (input: number, output: number, maxOutput: number): ModelPrice => ({
  input,
  output,
  cached_input: input / 10,
  cache_write: input * 1.25,
  cache_write_1h: input * 2,
  max_output_tokens: maxOutput,
});
// Gemini: implicit and explicit cache reads at 0.1x input; explicit caches also pay storage per
// 1M tokens per hour, charged once for the ttl when the gateway creates one. Every Gemini text
// model of the catalogue answers with at most 65,536 tokens (thinking included).
const GEMINI_MAX_OUTPUT = 65_536;
const gemini = (input: number, output: number, storagePerHour: number): ModelPrice => ({
  input,
  output,
  cached_input: input / 10,
  cache_write: 0,
  cache_storage_per_hour: storagePerHour,
  max_output_tokens: GEMINI_MAX_OUTPUT,
});

// Published maximum output tokens per reply (reasoning included where the model reasons).
const OPENAI_MAX_OUTPUT = 128_000; // GPT-5 family; the chat-latest snapshot allows 16,384
const OPUS_MAX_OUTPUT = 128_000; // Opus 4.6 and later; Opus 4.5 and Sonnet 4.6 allow 64,000
const CLAUDE_MAX_OUTPUT = 64_000;
// DeepSeek in thinking mode (the reasoner) answers with up to 64K tokens; V3-0324 is the older
// chat-only model with 8K. The V4 models are held like the reasoner until their limit is known.
const DEEPSEEK_MAX_OUTPUT = 65_536;

export const DEFAULT_PRICES: Readonly<Record<string, ModelPrice>> = {
  "txtA-5": gpt(1.25, 10, 0.125, OPENAI_MAX_OUTPUT),
  "txtA-5.1": gpt(1.25, 10, 0.125, OPENAI_MAX_OUTPUT),
  "txtA-5-chat-latest": gpt(1.25, 10, 0.125, 16_384),
  "txtA-5-mini": gpt(0.25, 2, 0.025, OPENAI_MAX_OUTPUT),
  "txtA-5.2-pro": gpt(21, 168, 21, OPENAI_MAX_OUTPUT),
  "txtA-5.2-codex": gpt(1.75, 14, 0.175, OPENAI_MAX_OUTPUT),
  "txtB-opus-4-8": claude(5, 25, OPUS_MAX_OUTPUT),
  "txtB-opus-4-7": claude(5, 25, OPUS_MAX_OUTPUT),
  "txtB-opus-4-6": claude(5, 25, OPUS_MAX_OUTPUT),
  "txtB-opus-4-5-20251101": claude(5, 25, CLAUDE_MAX_OUTPUT),
  "txtB-sonnet-4-6": claude(3, 15, CLAUDE_MAX_OUTPUT),
  "txtC-3.5-flash": gemini(0.5, 3, 1),
  "txtC-3.6-flash": gemini(0.5, 3, 1),
  "txtC-3.1-pro-preview": gemini(2, 12, 4.5),
  "txtC-3-pro-preview": gemini(2, 12, 4.5),
  "txtC-3-pro-preview-thinking": gemini(2, 12, 4.5),
  "txtC-3-flash-preview": gemini(0.5, 3, 1),
  "txtC-2.5-pro": gemini(1.25, 10, 4.5),
  "txtC-2.5-flash": gemini(0.3, 2.5, 1),
  "txtC-2.5-flash-lite": gemini(0.1, 0.4, 1),
  "txtD-v4-pro": gpt(0.55, 2.2, 0.055, DEEPSEEK_MAX_OUTPUT),
  "txtD-v4-flash": gpt(0.14, 0.28, 0.014, DEEPSEEK_MAX_OUTPUT),
  "txtD-v3.2": gpt(0.28, 0.42, 0.028, DEEPSEEK_MAX_OUTPUT),
  "txtD-v3.2-exp": gpt(0.28, 0.42, 0.028, DEEPSEEK_MAX_OUTPUT),
  "txtD-r1-250528": gpt(0.55, 2.19, 0.14, DEEPSEEK_MAX_OUTPUT),
  "txtD-v3-0324": gpt(0.27, 1.1, 0.07, 8_192),
  "vidV3.1-fast": { per_second: 0.15 },
  "vidV3.1-quality": { per_second: 0.4 },
  "vidV3.1-lite": { per_second: 0.05 },
  "vidV3.1-fast-official": { per_second: 0.15 },
  "vidV3.1-quality-official": { per_second: 0.4 },
  "vidV3.1-lite-official": { per_second: 0.05 },
  "txtA-image-2": { per_request: 0.04 },
  "txtC-3-pro-image-preview": { per_request: 0.134 },
  "txtA-4o-mini-tts": { per_million_characters: 15 },
  "asrW-1": { per_minute: 0.006 },
};
