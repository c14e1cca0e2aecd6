import type {
  Codec,
  Request,
  ToolNameRule,
  UpstreamProtocol,
  Warning,
  WireFormat,
} from "@interlingua/core-types";
import { chat, effortForBudget, OPENAI_TOOL_NAME_RULE } from "@interlingua/fmt-chat";
import { MESSAGES_TOOL_NAME_RULE, messages } from "@interlingua/fmt-messages";
import { NATIVE_TOOL_NAME_RULE, native } from "@interlingua/fmt-native";
import { responses } from "@interlingua/fmt-responses";
import { restoreMovedThinking, withoutCallSignatures } from "./restore-moved-thinking.ts";

export const DEFAULT_ANTHROPIC_VERSION = "2023-06-01";

export interface UpstreamCallOptions {
  /** The client's `anthropic-version` (or `vendor-version`) header, forwarded to Anthropic. */
  anthropicVersion?: string;
  /** The client's `anthropic-beta` header, forwarded to Anthropic as given. */
  anthropicBeta?: string;
}

/** The client formats some upstream protocol speaks byte for byte. */
export type SameFormat = "chat" | "messages" | "native";

export interface UpstreamProtocolSpec {
  /**
   * The client format whose wire this protocol speaks: equal formats take the fast path. None for
   * the Responses API: the client's `responses` format is docs/api-reference.md's shape, so it is translated.
   */
  readonly format: SameFormat | undefined;
  /** Renders this protocol's requests, parses its replies and decodes its streams. */
  readonly codec: Codec;
  /** A client format whose extras (its fields the canonical model does not hold) `codec` writes back. */
  readonly carries?: WireFormat;
  /** Path under the channel's base_url (DESIGN.md §4). */
  path(model: string, stream: boolean): string;
  /** The real header names each provider expects. */
  headers(apiKey: string, options: UpstreamCallOptions): Record<string, string>;
  /** What this protocol needs said another way, before a canonical request is rendered for it. */
  prepare?(request: Request, onWarning: (warning: Warning) => void): Request;
  /** The gateway's own fields on a body rendered for this protocol (not on a forwarded one). */
  finish?(body: Record<string, unknown>): Record<string, unknown>;
  /** The function names this protocol accepts: others are renamed there and back. */
  readonly toolNames: ToolNameRule;
}

export const UPSTREAM_PROTOCOLS: Record<UpstreamProtocol, UpstreamProtocolSpec> = {
  openai: {
    format: "chat",
    codec: chat,
    path: () => "/v1/chat/completions",
    headers: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
    toolNames: OPENAI_TOOL_NAME_RULE,
  },
  anthropic: {
    format: "messages",
    codec: messages,
    path: () => "/v1/messages",
    headers: (apiKey, options) => ({
      "x-api-key": apiKey,
      "anthropic-version": options.anthropicVersion ?? DEFAULT_ANTHROPIC_VERSION,
      ...(options.anthropicBeta === undefined ? {} : { "anthropic-beta": options.anthropicBeta }),
    }),
    toolNames: MESSAGES_TOOL_NAME_RULE,
  },
  gemini: {
    format: "native",
    codec: native,
    path: (model, stream) =>
      `/v1beta/models/${encodeURIComponent(model)}:${stream ? "streamGenerateContent?alt=sse" : "generateContent"}`,
    headers: (apiKey) => ({ "x-goog-api-key": apiKey }),
    toolNames: NATIVE_TOOL_NAME_RULE,
  },
  // OpenAI's Responses API: the only API serving its pro and codex models.
  "openai-responses": {
    format: undefined,
    codec: responses,
    // Both codecs keep a responses body's other fields in extras.responses.
    carries: "responses",
    path: () => "/v1/responses",
    headers: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
    prepare: (request, onWarning) =>
      budgetAsEffort(withoutCallSignatures(restoreMovedThinking(request), onWarning), onWarning),
    finish: statelessResponses,
    toolNames: OPENAI_TOOL_NAME_RULE,
  },
};

const ENCRYPTED_REASONING = "reasoning.encrypted_content";

/**
 * The gateway keeps no response on OpenAI's side (`store: false`): every turn carries its whole
 * history. Reasoning then comes back only as `encrypted_content`, which OpenAI returns only when
 * asked, so a request that reasons (or replays reasoning) asks for it, and the client gets it to
 * send back on its next turn. Models that do not reason refuse the ask, so others go without.
 */
function statelessResponses(body: Record<string, unknown>): Record<string, unknown> {
  const input = Array.isArray(body["input"]) ? (body["input"] as { type?: unknown }[]) : [];
  const reasons = body["reasoning"] != null || input.some((item) => item?.type === "reasoning");
  const include = Array.isArray(body["include"]) ? (body["include"] as unknown[]) : [];
  return {
    ...body,
    store: typeof body["store"] === "boolean" ? body["store"] : false,
    ...(reasons && !include.includes(ENCRYPTED_REASONING)
      ? { include: [...include, ENCRYPTED_REASONING] }
      : {}),
  };
}

/**
 * The Responses API takes a reasoning effort, not a token budget (Anthropic's and Gemini's
 * form): a budget becomes the effort that spends about as much, as it does toward chat.
 */
function budgetAsEffort(request: Request, onWarning: (warning: Warning) => void): Request {
  const thinking = request.thinking;
  if (thinking === undefined || thinking.type === "disabled") return request;
  const { budgetTokens, ...rest } = thinking;
  // With an effort too, the codec reports the budget it leaves out.
  if (budgetTokens === undefined || thinking.effort !== undefined) return request;
  const effort = effortForBudget(budgetTokens);
  onWarning({
    type: "mapped",
    feature: "thinking.budgetTokens",
    message: `a thinking budget of ${budgetTokens} tokens is sent as reasoning.effort "${effort}"`,
  });
  return { ...request, thinking: { ...rest, effort } };
}
