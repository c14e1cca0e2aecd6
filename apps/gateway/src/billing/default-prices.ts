import type { ModelPrice } from "../config/config-schema.ts";

// Defaults in USD for every model id of SPEC.md, from the providers' public list prices for the
// model each family tag stands for (per 1M tokens unless the key says otherwise). The config's
// `pricing` table overrides a model's entry key by key. Documented in the gateway README.
const gpt = (input: number, output: number, cached: number): ModelPrice => ({
  input,
  output,
  cached_input: cached,
  cache_write: 0,
});
// Anthropic writes: 1.25x input for the 5-minute ttl, 2x for 1 hour; reads 0.1x.
const claude = (input: number, output: number): ModelPrice => ({
  input,
  output,
  cached_input: input / 10,
  cache_write: input * 1.25,
  cache_write_1h: input * 2,
});
// Gemini: implicit and explicit cache reads at 0.1x input; explicit caches also pay storage per
// 1M tokens per hour, charged once for the ttl when the gateway creates one.
const gemini = (input: number, output: number, storagePerHour: number): ModelPrice => ({
  input,
  output,
  cached_input: input / 10,
  cache_write: 0,
  cache_storage_per_hour: storagePerHour,
});

export const DEFAULT_PRICES: Readonly<Record<string, ModelPrice>> = {
  "txtA-5": gpt(1.25, 10, 0.125),
  "txtA-5.1": gpt(1.25, 10, 0.125),
  "txtA-5-chat-latest": gpt(1.25, 10, 0.125),
  "txtA-5-mini": gpt(0.25, 2, 0.025),
  "txtA-5.2-pro": gpt(21, 168, 21),
  "txtA-5.2-codex": gpt(1.75, 14, 0.175),
  "txtB-opus-4-8": claude(5, 25),
  "txtB-opus-4-7": claude(5, 25),
  "txtB-opus-4-6": claude(5, 25),
  "txtB-opus-4-5-20251101": claude(5, 25),
  "txtB-sonnet-4-6": claude(3, 15),
  "txtC-3.5-flash": gemini(0.5, 3, 1),
  "txtC-3.6-flash": gemini(0.5, 3, 1),
  "txtC-3.1-pro-preview": gemini(2, 12, 4.5),
  "txtC-3-pro-preview": gemini(2, 12, 4.5),
  "txtC-3-pro-preview-thinking": gemini(2, 12, 4.5),
  "txtC-3-flash-preview": gemini(0.5, 3, 1),
  "txtC-2.5-pro": gemini(1.25, 10, 4.5),
  "txtC-2.5-flash": gemini(0.3, 2.5, 1),
  "txtC-2.5-flash-lite": gemini(0.1, 0.4, 1),
  "txtD-v4-pro": gpt(0.55, 2.2, 0.055),
  "txtD-v4-flash": gpt(0.14, 0.28, 0.014),
  "txtD-v3.2": gpt(0.28, 0.42, 0.028),
  "txtD-v3.2-exp": gpt(0.28, 0.42, 0.028),
  "txtD-r1-250528": gpt(0.55, 2.19, 0.14),
  "txtD-v3-0324": gpt(0.27, 1.1, 0.07),
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
