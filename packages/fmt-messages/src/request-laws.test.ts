import type { Message, Request, ToolResultPart } from "@interlingua/core-types";
import * as canonical from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { normalizeMessagesRequest } from "./normalize-messages.js";
import { parseMessagesRequest } from "./parse-messages-request.js";
import { renderMessagesRequest } from "./render-messages-request.js";
import { fc, wireRequest } from "./testing.js";
import { continuesUnsignedToolTurn } from "./unsigned-tool-turn.js";

describe("law 1: render(parse(w)) equals normalize(w)", () => {
  it("holds for generated requests", () => {
    fc.assert(
      fc.property(wireRequest, (wire) => {
        expect(renderMessagesRequest(parseMessagesRequest(wire))).toEqual(
          normalizeMessagesRequest(wire),
        );
      }),
    );
  });
});

/* ---- Law 2: canonical requests restricted to what the messages format expresses ----------
 * - text never blank (Anthropic rejects it; patched to non-blank), no text signatures, no image
 *   detail, url files without media type and base64 files only as PDF, tool calls without
 *   signature, tool results without name (the name is re-derived from a matching tool_use), thinking
 *   always signed, no message names;
 * - turns alternate as Anthropic requires: after an assistant message comes a tool message, a user
 *   message, or a tool message then a user message (the parse of one user turn);
 * - the final assistant turn's text does not end in whitespace (Anthropic rejects that);
 * - sampling within 0..1 temperature, maxTokens given, no penalties, seed or n;
 * - only function tools and Anthropic provider tools (not named "custom", options with a `name`
 *   and without `type`, as every Anthropic-defined tool has);
 * - parallelToolCalls only with a tool choice other than none;
 * - thinking: enabled with a budget, or disabled/adaptive without one; effort low..high, and none
 *   with disabled thinking; an effort is recorded as the client's own (`messages:shape`), as the
 *   parse of output_config.effort records it, so every model gets it back;
 * - no response format, provider extras (includeUsage, cachedContent, safety settings) or metadata.
 */
const solid = (text: string) => `t${text.trim()}t`;

function restrictParts<P extends { type: string }>(parts: P[]): P[] {
  return parts.map((part) => {
    const p = { ...part } as Record<string, unknown>;
    if (p["type"] === "text") {
      p["text"] = solid(p["text"] as string);
      delete p["signature"];
    }
    if (p["type"] === "image") delete p["detail"];
    if (p["type"] === "tool-call") delete p["signature"];
    if (p["type"] === "file") {
      const source = p["source"] as Record<string, unknown>;
      if (source["type"] === "url") p["source"] = { type: "url", url: source["url"] };
    }
    if (p["type"] === "tool-result") {
      delete p["name"];
      p["content"] = restrictParts(p["content"] as { type: string }[]);
    }
    return p as P;
  });
}

const side = (m: Message) => (m.role === "assistant" ? "assistant" : "user");

function alternate(messages: Message[]): Message[] {
  const out: Message[] = [];
  for (const message of messages) {
    const prev = out[out.length - 1];
    const ok =
      !prev || side(prev) !== side(message) || (prev.role === "tool" && message.role === "user");
    if (ok) out.push(message);
  }
  return out;
}

/** Tool results name their tool when an earlier assistant turn holds the matching call. */
function deriveNames(messages: Message[]): Message[] {
  const names = new Map<string, string>();
  return messages.map((message) => {
    if (message.role === "assistant") {
      for (const p of message.parts) if (p.type === "tool-call") names.set(p.id, p.name);
      return message;
    }
    if (message.role !== "tool") return message;
    return {
      ...message,
      parts: message.parts.map((p): ToolResultPart => {
        const name = names.get(p.toolCallId);
        return name === undefined ? p : { ...p, name };
      }),
    };
  });
}

const expressible: fc.Arbitrary<Request> = canonical.request.map((r): Request => {
  let messages = r.messages.map((m): Message => {
    const parts = restrictParts(
      m.parts.map((p) => (p.type === "thinking" ? { ...p, signature: p.signature ?? "sig" } : p)),
    );
    return m.role === "tool"
      ? { role: "tool", parts: parts as ToolResultPart[] }
      : ({ role: m.role, parts } as Message);
  });
  messages = deriveNames(alternate(messages));
  const out: Request = {
    model: r.model,
    system: restrictParts(r.system),
    messages,
    sampling: {
      maxTokens: r.sampling.maxTokens ?? 1024,
      ...(r.sampling.temperature !== undefined ? { temperature: r.sampling.temperature / 2 } : {}),
      ...(r.sampling.topP !== undefined ? { topP: r.sampling.topP } : {}),
      ...(r.sampling.topK !== undefined ? { topK: r.sampling.topK } : {}),
      ...(r.sampling.stop !== undefined ? { stop: r.sampling.stop } : {}),
    },
    tools: r.tools.flatMap((t): Request["tools"] => {
      if (t.type === "function") return [t];
      if (t.type === "provider" && t.name !== "custom") {
        const { type: _type, ...options } = t.options;
        return [{ ...t, provider: "anthropic" as const, options: { ...options, name: t.name } }];
      }
      return [];
    }),
    stream: r.stream,
  };
  // The messages protocol has no allowed list: it is rendered as a shorter tools list.
  if (r.toolChoice) {
    out.toolChoice =
      r.toolChoice.type === "auto" || r.toolChoice.type === "required"
        ? { type: r.toolChoice.type }
        : r.toolChoice;
  }
  if (r.toolChoice && r.toolChoice.type !== "none" && r.parallelToolCalls !== undefined) {
    out.parallelToolCalls = r.parallelToolCalls;
  }
  if (r.thinking) {
    const { type } = r.thinking;
    const effort = r.thinking.effort === "minimal" ? "low" : r.thinking.effort;
    out.thinking =
      type === "enabled" ? { type, budgetTokens: r.thinking.budgetTokens ?? 2048 } : { type };
    if (type !== "disabled" && effort !== undefined) {
      out.thinking.effort = effort;
      // An output_config.effort the parse reads is the client's own, recorded as sent.
      out.extras = { "messages:shape": { effort: "sent" } };
    }
    if (type !== "disabled" && r.thinking.includeThoughts !== undefined) {
      out.thinking.includeThoughts = r.thinking.includeThoughts;
    }
  }
  if (r.user !== undefined) out.user = r.user;
  return out;
});

/** Anthropic's thinking rules hold (fit-thinking-constraints.ts adapts requests that break them). */
function fitsThinkingRules(r: Request): boolean {
  const t = r.thinking;
  if (t === undefined || t.type === "disabled") return true;
  const s = r.sampling;
  if (r.toolChoice?.type === "required" || r.toolChoice?.type === "tool") return false;
  if (s.temperature !== undefined && s.temperature !== 1) return false;
  if (s.topK !== undefined || (s.topP !== undefined && s.topP < 0.95)) return false;
  const budget = t.budgetTokens;
  return budget === undefined || (budget >= 1024 && budget < (s.maxTokens ?? 0));
}

/** A final assistant turn may not end in whitespace, so it ends in a solid tool call or text. */
const expressibleRequest = expressible.filter(fitsThinkingRules).filter(
  (r) =>
    r.messages.length > 0 &&
    // Thinking is turned off for a tool turn without its signed block (unsigned-tool-turn.ts).
    !(
      r.thinking !== undefined &&
      r.thinking.type !== "disabled" &&
      continuesUnsignedToolTurn(renderMessagesRequest(r).messages)
    ),
);

describe("law 2: parse(render(c)) equals c", () => {
  it("holds for canonical requests the messages format expresses", () => {
    fc.assert(
      fc.property(expressibleRequest, (request) => {
        expect(parseMessagesRequest(renderMessagesRequest(request))).toEqual(request);
      }),
    );
  });
});
