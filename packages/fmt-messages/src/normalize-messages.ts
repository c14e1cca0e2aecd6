import type { JsonObject } from "@interlingua/core-types";
import { invalidFromZod } from "@interlingua/errors";
import { fitThinkingConstraints } from "./fit-thinking-constraints.js";
import { MESSAGES_STOP_REASONS } from "./map-messages-finish-reason.js";
import {
  MESSAGES_DEFAULT_TIER,
  MESSAGES_NO_INFERENCE_GEO,
  messagesServiceTier,
} from "./map-messages-usage.js";
import type {
  MessagesCacheControl,
  MessagesContentBlock,
  MessagesImageBlock,
  MessagesMessage,
  MessagesRequestWire,
  MessagesResponseBlock,
  MessagesResponseBlockOut,
  MessagesResultWire,
  MessagesTextBlock,
  MessagesTool,
  MessagesToolResultBlock,
  MessagesUsageOut,
  MessagesUsageWire,
} from "./messages-api.js";
import {
  isKnownResponseBlock,
  messagesRequestSchema,
  messagesResponseSchema,
} from "./messages-api.js";
import { requiresAdaptiveThinking } from "./messages-model-defaults.js";
import { toMessagesToolCallId } from "./messages-tool-call-id.js";
import { DIRECT } from "./render-messages-response.js";
import { messagesOutputSchema } from "./render-output-format.js";
import { signatureOf, UNSIGNED_THINKING } from "./unsigned-thinking.js";
import { continuesUnsignedToolTurn } from "./unsigned-tool-turn.js";

/*
 * Law 1 says render(parse(w)) equals normalize(w). These functions state, independently of the
 * converters, every way a same-format round trip may change a valid wire value; anything not
 * listed here comes back exactly as it went in.
 */

const isBlank = (text: string) => text.trim() === "";

function cache(block: { cache_control?: MessagesCacheControl | null | undefined }) {
  const c = block.cache_control;
  if (!c) return {};
  return { cache_control: c.ttl === undefined ? { type: c.type } : { type: c.type, ttl: c.ttl } };
}

function text(block: MessagesTextBlock): MessagesTextBlock | undefined {
  // Blank text is never sent to Anthropic; citations have no canonical home.
  if (isBlank(block.text)) return undefined;
  return { type: "text", text: block.text, ...cache(block) };
}

function image(block: MessagesImageBlock): MessagesImageBlock {
  const s = block.source;
  const source =
    s.type === "url"
      ? { type: "url" as const, url: s.url }
      : { type: "base64" as const, media_type: s.media_type, data: s.data };
  return { type: "image", source, ...cache(block) };
}

function block(b: MessagesContentBlock): MessagesContentBlock | undefined {
  switch (b.type) {
    case "text":
      return text(b);
    case "image":
      return image(b);
    case "document": {
      const s = b.source;
      // An image sent as a document comes back as the image block it is.
      if (s.type === "base64" && s.media_type.startsWith("image/")) {
        return image({ type: "image", source: s, cache_control: b.cache_control });
      }
      const source =
        s.type === "url"
          ? { type: "url" as const, url: s.url }
          : s.type === "file"
            ? { type: "file" as const, file_id: s.file_id }
            : s.type === "text"
              ? { type: "text" as const, media_type: s.media_type, data: s.data }
              : { type: "base64" as const, media_type: s.media_type, data: s.data };
      return {
        type: "document",
        source,
        ...(typeof b.title === "string" ? { title: b.title } : {}),
        ...(typeof b.context === "string" ? { context: b.context } : {}),
        ...(typeof b.citations?.enabled === "boolean"
          ? { citations: { enabled: b.citations.enabled } }
          : {}),
        ...cache(b),
      };
    }
    case "tool_use":
      return {
        type: "tool_use",
        id: toMessagesToolCallId(b.id),
        name: b.name,
        input: b.input,
        ...cache(b),
      };
    case "tool_result": {
      const items =
        b.content === undefined
          ? []
          : typeof b.content === "string"
            ? [{ type: "text" as const, text: b.content }]
            : b.content;
      const content = items
        .map((c) => (c.type === "text" ? text(c) : image(c)))
        .filter((c) => c !== undefined);
      const out: MessagesToolResultBlock = {
        type: "tool_result",
        tool_use_id: toMessagesToolCallId(b.tool_use_id),
      };
      const only = content[0];
      if (content.length === 1 && only?.type === "text" && !only.cache_control)
        out.content = only.text;
      else if (content.length > 0) out.content = content;
      if (typeof b.is_error === "boolean") out.is_error = b.is_error;
      return { ...out, ...cache(b) };
    }
    case "thinking":
      // Unsigned thinking is never sent back to Anthropic.
      return b.signature
        ? { type: "thinking", thinking: b.thinking, signature: b.signature }
        : undefined;
    case "redacted_thinking":
      return { type: "redacted_thinking", data: b.data };
  }
}

/**
 * What a same-format request round trip normalises:
 * - `stream: false` is omitted; `null` optional fields are omitted;
 * - blank (empty or whitespace-only) text blocks are removed everywhere, and a system prompt or
 *   message left empty is removed; thinking blocks without a signature are removed;
 * - text `citations` are removed; document `context`/`citations.enabled` stay;
 * - consecutive messages of one role are merged, and a user turn's tool_result blocks come first;
 * - message content is a string exactly when it is one text block without cache_control; a
 *   tool_result's content likewise, and an empty one is omitted;
 * - a final assistant turn's last text block loses trailing whitespace;
 * - tool ids are made acceptable with `toMessagesToolCallId`;
 * - custom tools lose `type: "custom"`; metadata keeps only a string user_id;
 * - `tool_choice: none` loses disable_parallel_tool_use; `thinking: enabled` becomes adaptive on
 *   models that only take adaptive thinking;
 * - thinking is disabled when the tool turn being continued has no thinking block first
 *   (`continuesUnsignedToolTurn`);
 * - Anthropic's thinking rules are applied (`fitThinkingConstraints`);
 * - a structured-output schema (`output_config.format`, json_schema) has its objects closed
 *   (`messagesOutputSchema`).
 */
export function normalizeMessagesRequest(wire: unknown): MessagesRequestWire {
  const parsed = messagesRequestSchema.safeParse(wire);
  if (!parsed.success) throw invalidFromZod(parsed.error, "messages request");
  const w = parsed.data;
  const out: MessagesRequestWire = { ...w, model: w.model, max_tokens: w.max_tokens, messages: [] };
  for (const key of ["system", "metadata", "tools", "tool_choice", "thinking", "stream"] as const) {
    delete out[key];
  }

  if (typeof w.system === "string") {
    if (!isBlank(w.system)) out.system = w.system;
  } else if (w.system) {
    const system = w.system.map(text).filter((b) => b !== undefined);
    if (system.length > 0) out.system = system;
  }

  const turns: {
    role: "user" | "assistant";
    results: MessagesContentBlock[];
    rest: MessagesContentBlock[];
  }[] = [];
  for (const message of w.messages) {
    // System messages inside `messages` join the system text (parse-messages-request.ts).
    if (message.role === "system") continue;
    const items: MessagesContentBlock[] =
      typeof message.content === "string"
        ? [{ type: "text", text: message.content }]
        : message.content;
    const blocks = items.map(block).filter((b) => b !== undefined);
    if (blocks.length === 0) continue;
    const results = blocks.filter((b) => b.type === "tool_result");
    const rest = blocks.filter((b) => b.type !== "tool_result");
    const last = turns[turns.length - 1];
    if (last && last.role === message.role) {
      last.results.push(...results);
      last.rest.push(...rest);
    } else {
      turns.push({ role: message.role as "user" | "assistant", results, rest });
    }
  }
  const final = turns[turns.length - 1];
  const tail = final?.rest[final.rest.length - 1];
  if (final?.role === "assistant" && tail?.type === "text") tail.text = tail.text.trimEnd();
  out.messages = turns.map((turn): MessagesMessage => {
    const content = [...turn.results, ...turn.rest];
    const only = content[0];
    if (content.length === 1 && only?.type === "text" && !only.cache_control) {
      return { role: turn.role, content: only.text };
    }
    return { role: turn.role, content };
  });

  if (typeof w.metadata?.user_id === "string") out.metadata = { user_id: w.metadata.user_id };
  if (w.tools && w.tools.length > 0) {
    out.tools = w.tools.map((tool): MessagesTool => {
      if (tool.type !== undefined && tool.type !== "custom") return tool;
      const custom = tool as Extract<MessagesTool, { input_schema: unknown }>;
      return {
        name: custom.name,
        ...(custom.description !== undefined ? { description: custom.description } : {}),
        input_schema: custom.input_schema,
        ...(custom.strict !== undefined ? { strict: custom.strict } : {}),
        ...cache(custom),
      };
    });
  }
  if (w.tool_choice)
    out.tool_choice = w.tool_choice.type === "none" ? { type: "none" } : w.tool_choice;
  if (w.thinking) {
    out.thinking =
      w.thinking.type === "enabled" && requiresAdaptiveThinking(w.model)
        ? w.thinking.display
          ? { type: "adaptive", display: w.thinking.display }
          : { type: "adaptive" }
        : w.thinking;
  }
  if (out.thinking !== undefined && out.thinking.type !== "disabled") {
    if (continuesUnsignedToolTurn(out.messages)) out.thinking = { type: "disabled" };
  }
  fitThinkingConstraints(out, true, () => {});
  normalizeOutputFormat(out);
  if (w.stream) out.stream = true;
  return out;
}

/**
 * What a same-format response round trip normalises: the result carries exactly docs/api-reference.md's fields
 * (unknown top-level fields go, `type`/`role` are filled in); unknown block types are removed;
 * text keeps only `text` (citations go) and tool_use's `caller` reads `direct`; a missing thinking signature
 * is ""; a missing stop_reason or one Anthropic does not document becomes null; absent stop_sequence and
 * stop_details are null; usage is the full object (cache_creation defaults to all writes as 5m,
 * service_tier to standard (a tier outside Anthropic's enum too) and inference_geo to not_available,
 * output_tokens_details only when thinking_tokens > 0).
 */
export function normalizeMessagesResponse(wire: unknown): MessagesResultWire {
  const parsed = messagesResponseSchema.safeParse(wire);
  if (!parsed.success) throw invalidFromZod(parsed.error, "messages response");
  const w = parsed.data;
  return {
    id: w.id,
    type: "message",
    role: "assistant",
    model: w.model,
    content: w.content.filter(isKnownResponseBlock).map(responseBlock),
    stop_reason:
      typeof w.stop_reason === "string" && Object.hasOwn(MESSAGES_STOP_REASONS, w.stop_reason)
        ? w.stop_reason
        : null,
    stop_sequence: w.stop_sequence ?? null,
    stop_details: w.stop_details ?? null,
    usage: usage(w.usage),
  };
}

function usage(u: MessagesUsageWire): MessagesUsageOut {
  const writes = u.cache_creation_input_tokens ?? 0;
  const out: MessagesUsageOut = {
    input_tokens: u.input_tokens,
    output_tokens: u.output_tokens,
    cache_creation_input_tokens: writes,
    cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
    cache_creation: u.cache_creation
      ? {
          ephemeral_5m_input_tokens: u.cache_creation.ephemeral_5m_input_tokens ?? 0,
          ephemeral_1h_input_tokens: u.cache_creation.ephemeral_1h_input_tokens ?? 0,
        }
      : { ephemeral_5m_input_tokens: writes, ephemeral_1h_input_tokens: 0 },
    service_tier: messagesServiceTier(u.service_tier ?? undefined) ?? MESSAGES_DEFAULT_TIER,
    inference_geo: u.inference_geo ?? MESSAGES_NO_INFERENCE_GEO,
  };
  const thinking = u.output_tokens_details?.thinking_tokens ?? 0;
  if (thinking > 0) out.output_tokens_details = { thinking_tokens: thinking };
  return out;
}

function responseBlock(b: MessagesResponseBlock): MessagesResponseBlockOut {
  switch (b.type) {
    case "text":
      return { type: "text", text: b.text };
    case "tool_use":
      return { type: "tool_use", id: b.id, name: b.name, input: b.input, caller: DIRECT };
    case "thinking":
      return {
        type: "thinking",
        thinking: b.thinking,
        signature: signatureOf(b.signature) ?? UNSIGNED_THINKING,
      };
    case "redacted_thinking":
      return { type: "redacted_thinking", data: b.data };
  }
}

/** `output_config.format` as the render writes it back (see parse-output-format.ts). */
function normalizeOutputFormat(out: MessagesRequestWire): void {
  const config = out["output_config"];
  if (typeof config !== "object" || config === null) return;
  const format = (config as Record<string, unknown>)["format"] as
    | Record<string, unknown>
    | undefined;
  const schema = format?.["schema"];
  if (format?.["type"] !== "json_schema" || typeof schema !== "object" || schema === null) return;
  if (Array.isArray(schema) || Object.keys(format).length !== 2) return;
  out["output_config"] = {
    ...config,
    format: { type: "json_schema", schema: messagesOutputSchema(schema as JsonObject) },
  };
}
