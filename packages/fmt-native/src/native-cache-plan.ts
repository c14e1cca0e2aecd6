import {
  type CachePlan,
  type CachePlanInput,
  type CreatedCacheResource,
  type Message,
  type RenderOptions,
  type Request,
  stripCacheControl,
} from "@interlingua/core-types";
import { geminiCacheTtls, type NativeCachedContentCreate } from "./native-cached-content.js";
import { bookkeepingKey, type NativeBookkeeping } from "./native-extras.js";
import { renderNativeRequest } from "./render-native-request.js";

/** What the Gemini plan reads of a cache analysis: how many messages are cached, and the ttl. */
type GeminiCacheAnalysis = Pick<CachePlanInput, "prefixMessages" | "ttl">;

export interface GeminiCachePlan {
  /** The `POST /v1beta/cachedContents` body holding the prefix, system and tools. */
  create: NativeCachedContentCreate;
  /** The request to send once the cache exists, given its resource name (`cachedContents/...`). */
  suffix(name: string): Request;
}

/** Native bookkeeping that renders tools or toolConfig, which the cache already holds. */
const toolBookkeeping = [
  "toolConfig",
  "functionCallingConfig",
  "functionCalling",
  "declarations",
  "jsonSchemaFunctions",
  "systemRole",
] as const satisfies readonly (keyof NativeBookkeeping)[];

function withoutToolBookkeeping(extras: Request["extras"]): Request["extras"] {
  const book = extras?.native?.[bookkeepingKey];
  if (extras === undefined || typeof book !== "object" || book === null) return extras;
  const kept = { ...(book as Record<string, unknown>) };
  for (const key of toolBookkeeping) delete kept[key];
  return { ...extras, native: { ...extras.native, [bookkeepingKey]: kept } };
}

/**
 * The upstream matches a function response to its call by name; when the call is in the cached
 * prefix the live turns no longer show it, so the name is written on the result.
 */
function nameToolResults(live: Message[], prefix: Message[]): Message[] {
  const names = new Map<string, string>();
  for (const message of prefix) {
    if (message.role !== "assistant") continue;
    for (const part of message.parts) if (part.type === "tool-call") names.set(part.id, part.name);
  }
  return live.map((message) => {
    if (message.role !== "tool") return message;
    const parts = message.parts.map((part) => {
      const name = part.name ?? names.get(part.toolCallId);
      return name === undefined || part.name !== undefined ? part : { ...part, name };
    });
    return { ...message, parts };
  });
}

const modelResource = (model: string) => (model.startsWith("models/") ? model : `models/${model}`);

/**
 * The Gemini plan: a cachedContents resource holding the prefix turns, the system instruction,
 * the tools and their config (rendered with the native codec), and a suffix request carrying
 * only the live turns and `cachedContent` (Gemini refuses system instruction, tools and tool
 * config next to a cache). Never mutates.
 */
export function planGemini(
  request: Request,
  analysis: GeminiCacheAnalysis,
  upstreamModel: string,
  options?: RenderOptions,
): GeminiCachePlan {
  const stripped = stripCacheControl(request);
  const prefix = stripped.messages.slice(0, analysis.prefixMessages);
  const live = stripped.messages.slice(analysis.prefixMessages);
  // Only what the cache holds is rendered, so the render reports nothing about live fields.
  const cached: Request = {
    model: upstreamModel,
    system: stripped.system,
    messages: prefix,
    sampling: {},
    tools: stripped.tools,
    stream: false,
  };
  if (stripped.toolChoice !== undefined) cached.toolChoice = stripped.toolChoice;
  const book = stripped.extras?.native?.[bookkeepingKey];
  if (book !== undefined) cached.extras = { native: { [bookkeepingKey]: book } };
  const body = renderNativeRequest(cached, options);

  const create: NativeCachedContentCreate = {
    model: modelResource(upstreamModel),
    ttl: geminiCacheTtls[analysis.ttl],
  };
  if (body.contents.length > 0) {
    create.contents = body.contents.map((content) => ({
      ...content,
      role: content.role === "model" ? "model" : "user",
    }));
  }
  if (body.systemInstruction !== undefined) create.systemInstruction = body.systemInstruction;
  if (body.tools !== undefined) create.tools = body.tools;
  if (body.toolConfig !== undefined) create.toolConfig = body.toolConfig;

  return {
    create,
    suffix(name: string): Request {
      const { toolChoice: _toolChoice, extras, ...rest } = stripped;
      const out: Request = {
        ...rest,
        system: [],
        tools: [],
        messages: nameToolResults(live, prefix),
        providerExtras: {
          ...rest.providerExtras,
          gemini: { ...rest.providerExtras?.gemini, cachedContent: name },
        },
      };
      const kept = withoutToolBookkeeping(extras);
      if (kept !== undefined) out.extras = kept;
      return out;
    },
  };
}

const CACHED_CONTENTS_PATH = "/v1beta/cachedContents";
/** More tokens than any Gemini context holds: a reply claiming more is not believed. */
const MAX_CACHED_TOKENS = 10_000_000;

/** A created CachedContent's name, expiry and token count, as far as the reply says them. */
export function readCreatedCache(reply: unknown): CreatedCacheResource | undefined {
  if (typeof reply !== "object" || reply === null) return undefined;
  const { name, expireTime, usageMetadata } = reply as Record<string, unknown>;
  if (typeof name !== "string" || !name.startsWith("cachedContents/") || name.length > 512) {
    return undefined;
  }
  const expiresAt = typeof expireTime === "string" ? Date.parse(expireTime) : Number.NaN;
  const counted =
    typeof usageMetadata === "object" && usageMetadata !== null
      ? (usageMetadata as Record<string, unknown>)["totalTokenCount"]
      : undefined;
  const tokens =
    typeof counted === "number" && Number.isSafeInteger(counted) && counted > 0
      ? Math.min(counted, MAX_CACHED_TOKENS)
      : 0;
  return { name, tokens, ...(Number.isFinite(expiresAt) ? { expiresAt } : {}) };
}

/**
 * `Protocol.cachePlan` of Gemini: a cachedContents resource made first (the gateway shares one
 * per key), then the live turns naming it.
 */
export function nativeCachePlan({
  request,
  prefixMessages,
  ttl,
  onWarning,
}: CachePlanInput): CachePlan {
  const plan = planGemini(request, { prefixMessages, ttl }, request.model, { onWarning });
  return {
    kind: "resource",
    mode: "gemini",
    create: { path: CACHED_CONTENTS_PATH, body: plan.create },
    ttlSeconds: Number.parseInt(plan.create.ttl, 10),
    created: readCreatedCache,
    suffix: plan.suffix,
  };
}
