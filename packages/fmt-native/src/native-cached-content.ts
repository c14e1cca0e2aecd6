import { zStrictObject } from "@interlingua/core-types";
import * as z from "zod/mini";
import {
  nativeContentSchema,
  nativeSystemInstructionSchema,
  nativeToolConfigSchema,
  nativeToolSchema,
} from "./native-api.js";

/** Gemini cachedContents take a Duration string; the spec's two ttls map to these. */
export const geminiCacheTtls = { "5m": "300s", "1h": "3600s" } as const;

/**
 * The body of Gemini `POST /v1beta/cachedContents` (a CachedContent resource) as this package
 * a gateway sends it: the model as `models/{id}`, the cached turns, system instruction, tools and tool
 * config, and a ttl. Output-only fields (name, createTime, expireTime, usageMetadata) are absent.
 */
export const nativeCachedContentCreateSchema = zStrictObject({
  model: z.string().check(z.regex(/^models\/[^/]+$/, "must be models/{model}")),
  contents: z.optional(z.array(z.extend(nativeContentSchema, { role: z.enum(["user", "model"]) }))),
  systemInstruction: z.optional(nativeSystemInstructionSchema),
  tools: z.optional(z.array(nativeToolSchema)),
  toolConfig: z.optional(nativeToolConfigSchema),
  ttl: z.enum([geminiCacheTtls["5m"], geminiCacheTtls["1h"]]),
});
export type NativeCachedContentCreate = z.infer<typeof nativeCachedContentCreateSchema>;
