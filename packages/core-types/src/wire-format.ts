import * as z from "zod/mini";

/** The four client-facing wire formats. Upstream protocols reuse three of them (not responses). */
export const wireFormatSchema = z.enum(["chat", "responses", "messages", "native"]);
export type WireFormat = z.infer<typeof wireFormatSchema>;

/**
 * The upstream protocols a channel speaks. `openai-responses` is OpenAI's Responses API
 * (`/v1/responses`), the only API serving its pro and codex models.
 */
export const upstreamProtocolSchema = z.enum(["openai", "anthropic", "gemini", "openai-responses"]);
export type UpstreamProtocol = z.infer<typeof upstreamProtocolSchema>;

/**
 * Fields a format has that the canonical model does not interpret, keyed by format. A codec stores
 * unknown fields of its own wire object here on parse and writes them back on render, so a value
 * that goes in and out of one format loses nothing; other formats ignore another format's bag.
 */
export const extrasSchema = z.record(z.string(), z.record(z.string(), z.unknown()));
export type Extras = z.infer<typeof extrasSchema>;
