import {
  nativeContentSchema,
  nativeSystemInstructionSchema,
  nativeToolConfigSchema,
  nativeToolSchema,
} from "@interlingua/fmt-native/schemas";
import * as z from "zod";

/** Gemini cachedContents take a Duration string; the spec's two ttls map to these. */
export const geminiCacheTtls = { "5m": "300s", "1h": "3600s" } as const;

/**
 * The body of Gemini `POST /v1beta/cachedContents` (a CachedContent resource) as this package
 * sends it: the model as `models/{id}`, the cached turns, system instruction, tools and tool
 * config, and a ttl. Output-only fields (name, createTime, expireTime, usageMetadata) are absent.
 */
export const nativeCachedContentCreateSchema = z.strictObject({
  model: z.string().regex(/^models\/[^/]+$/, "must be models/{model}"),
  contents: z.array(nativeContentSchema.extend({ role: z.enum(["user", "model"]) })).optional(),
  systemInstruction: nativeSystemInstructionSchema.optional(),
  tools: z.array(nativeToolSchema).optional(),
  toolConfig: nativeToolConfigSchema.optional(),
  ttl: z.enum([geminiCacheTtls["5m"], geminiCacheTtls["1h"]]),
});
export type NativeCachedContentCreate = z.infer<typeof nativeCachedContentCreateSchema>;
