import type { Message, Request } from "@interlingua/core-types";
import { parseChatRequest } from "@interlingua/fmt-chat";
import { parseNativeRequest } from "@interlingua/fmt-native";

/** A chat client's body, parsed the way the gateway parses it. */
export const chatRequest = (messages: unknown[], extra: Record<string, unknown> = {}): Request =>
  parseChatRequest({ model: "txtB-sonnet-4-6", messages, ...extra });

/** A native client's body, parsed the way the gateway parses it. */
export const nativeRequest = (body: Record<string, unknown>): Request =>
  parseNativeRequest(body, { model: "txtC-3.6-flash" });

export const cc = (ttl?: "5m" | "1h" | string) =>
  ttl === undefined ? { type: "ephemeral" } : { type: "ephemeral", ttl };

export const text = (value: string, cacheTtl?: string | null) =>
  cacheTtl === undefined
    ? { type: "text", text: value }
    : { type: "text", text: value, cache_control: cc(cacheTtl ?? undefined) };

export const userText = (value: string): Message => ({
  role: "user",
  parts: [{ type: "text", text: value }],
});

/** A minimal canonical request around some messages. */
export const canonical = (messages: Message[], extra: Partial<Request> = {}): Request => ({
  model: "txtC-3.6-flash",
  system: [],
  messages,
  sampling: {},
  tools: [],
  stream: false,
  ...extra,
});

/** Every cacheControl in a value, with its JSON path. */
export function cacheControlPaths(value: unknown, path = ""): string[] {
  if (value === null || typeof value !== "object") return [];
  const out: string[] = [];
  for (const [key, member] of Object.entries(value)) {
    const at = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    if (key === "cacheControl" || key === "cache_control") out.push(at);
    out.push(...cacheControlPaths(member, at));
  }
  return out;
}
