import type { Context } from "hono";
import type { SimEnv } from "../core/env.ts";
import { keyFingerprint } from "../core/hash.ts";
import { asString, type JsonObject } from "../core/json.ts";
import { openaiApiKey } from "./auth.ts";
import { OPENAI_RETENTION_MS } from "./prefix-cache.ts";

/**
 * Where a chat or Responses request's prompt cache lives (per key, model and
 * `prompt_cache_key`) and how long an entry stays (`prompt_cache_retention`).
 */
export function openaiCacheScope(
  c: Context<SimEnv>,
  json: JsonObject,
  model: string,
): { scope: string; retentionMs: number } {
  const scope = [
    "openai",
    keyFingerprint(openaiApiKey(c.req.raw.headers) ?? ""),
    model,
    asString(json.prompt_cache_key) ?? "",
  ].join("\u0000");
  const retentionMs =
    OPENAI_RETENTION_MS[asString(json.prompt_cache_retention) ?? "in_memory"] ??
    OPENAI_RETENTION_MS.in_memory!;
  return { scope, retentionMs };
}
