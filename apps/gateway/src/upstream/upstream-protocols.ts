import type { UpstreamProtocol } from "@interlingua/core-types";

export const DEFAULT_ANTHROPIC_VERSION = "2023-06-01";

export interface UpstreamCallOptions {
  /** The client's `anthropic-version` (or `vendor-version`) header, forwarded to Anthropic. */
  anthropicVersion?: string;
  /** The client's `anthropic-beta` header, forwarded to Anthropic as given. */
  anthropicBeta?: string;
}

export interface UpstreamProtocolSpec {
  /** The client format whose wire this protocol speaks: equal formats take the fast path. */
  readonly format: "chat" | "messages" | "native";
  /** Path under the channel's base_url (DESIGN.md §4). */
  path(model: string, stream: boolean): string;
  /** The real header names each provider expects. */
  headers(apiKey: string, options: UpstreamCallOptions): Record<string, string>;
}

export const UPSTREAM_PROTOCOLS: Record<UpstreamProtocol, UpstreamProtocolSpec> = {
  openai: {
    format: "chat",
    path: () => "/v1/chat/completions",
    headers: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
  },
  anthropic: {
    format: "messages",
    path: () => "/v1/messages",
    headers: (apiKey, options) => ({
      "x-api-key": apiKey,
      "anthropic-version": options.anthropicVersion ?? DEFAULT_ANTHROPIC_VERSION,
      ...(options.anthropicBeta === undefined ? {} : { "anthropic-beta": options.anthropicBeta }),
    }),
  },
  gemini: {
    format: "native",
    path: (model, stream) =>
      `/v1beta/models/${encodeURIComponent(model)}:${stream ? "streamGenerateContent?alt=sse" : "generateContent"}`,
    headers: (apiKey) => ({ "x-goog-api-key": apiKey }),
  },
};
