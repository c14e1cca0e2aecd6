import {
  type CacheControl,
  type CachePlan,
  type CachePlanInput,
  type Message,
  type Part,
  type RenderOptions,
  type Request,
  stripCacheControl,
  type TextPart,
} from "@interlingua/core-types";
import { withCacheScope } from "./messages-cache-scope.js";

/** What the Anthropic plan reads of a cache analysis: where the boundary is, and its ttl. */
type AnthropicCacheAnalysis = Pick<CachePlanInput, "boundary" | "ttl">;

/** Anthropic accepts at most this many cache_control breakpoints in one request. */
export const ANTHROPIC_MAX_BREAKPOINTS = 4;

/** Thinking blocks cannot carry cache_control upstream. */
const cannotCarry = new Set<Part["type"]>(["thinking", "redacted-thinking"]);

type Target =
  | { area: "system"; part: number }
  | { area: "messages"; message: number; part: number };

/** A block's place in warnings; a boundary's `content` (inside a tool result) is not part of it. */
const placeOf = (t: Target) =>
  t.area === "system" ? `system[${t.part}]` : `messages[${t.message}].parts[${t.part}]`;

/**
 * The part that gets the breakpoint: the boundary part, else the nearest earlier part of the
 * boundary message, else its nearest later part (the whole boundary message is in the prefix,
 * docs/api-reference.md rule 2), else the nearest carrier of an earlier message. The prefix in Anthropic's cache
 * order is tools, system, messages, so a scan that runs out of messages continues on the system.
 */
function breakpointTarget(request: Request, analysis: AnthropicCacheAnalysis): Target | undefined {
  const { boundary } = analysis;
  if (boundary.area === "messages") {
    const carries = (m: number, p: number) =>
      !cannotCarry.has((request.messages[m]!.parts as Part[])[p]!.type);
    const parts = request.messages[boundary.message]!.parts as Part[];
    const at = Math.min(boundary.part, parts.length - 1);
    for (let p = at; p >= 0; p--) {
      if (carries(boundary.message, p))
        return { area: "messages", message: boundary.message, part: p };
    }
    for (let p = at + 1; p < parts.length; p++) {
      if (carries(boundary.message, p))
        return { area: "messages", message: boundary.message, part: p };
    }
    for (let m = boundary.message - 1; m >= 0; m--) {
      for (let p = request.messages[m]!.parts.length - 1; p >= 0; p--) {
        if (carries(m, p)) return { area: "messages", message: m, part: p };
      }
    }
  }
  const start = boundary.area === "system" ? boundary.part : request.system.length - 1;
  return start >= 0 ? { area: "system", part: start } : undefined;
}

function markMessage(message: Message, part: number, control: CacheControl): Message {
  const parts = (message.parts as Part[]).map((p, i) =>
    i === part ? { ...p, cacheControl: control } : p,
  );
  return { ...message, parts } as Message;
}

/**
 * The request for an Anthropic upstream: every client boundary removed and exactly one breakpoint
 * `{type: "ephemeral", ttl}` on the boundary part, moved off thinking blocks (which cannot carry
 * one) to the nearest part of the prefix that can. One breakpoint is always within Anthropic's
 * limit of four. Never mutates.
 */
export function planAnthropic(
  request: Request,
  analysis: AnthropicCacheAnalysis,
  options?: RenderOptions,
): Request {
  const out = stripCacheControl(request);
  const control: CacheControl = { type: "ephemeral", ttl: analysis.ttl };
  const target = breakpointTarget(out, analysis);
  if (target === undefined) {
    options?.onWarning?.({
      type: "dropped",
      feature: "cacheControl",
      message:
        "the cached prefix holds only thinking blocks, which cannot carry a cache breakpoint",
    });
    return out;
  }
  const from = placeOf(analysis.boundary);
  const to = placeOf(target);
  if (to !== from) {
    options?.onWarning?.({
      type: "mapped",
      feature: `${from}.cacheControl`,
      message: `a thinking block cannot carry a cache breakpoint; it was put on ${to}`,
    });
  }
  if (target.area === "system") {
    const system = out.system.map(
      (p, i): TextPart => (i === target.part ? { ...p, cacheControl: control } : p),
    );
    return { ...out, system };
  }
  const messages = out.messages.map((m, i) =>
    i === target.message ? markMessage(m, target.part, control) : m,
  );
  return { ...out, messages };
}

/**
 * `Protocol.cachePlan` of Anthropic's Messages API: one breakpoint on the boundary, and the
 * scope marker ahead of the prefix so that users of one channel never share a cache (rule 4).
 */
export const messagesCachePlan = ({
  request,
  boundary,
  ttl,
  scope,
  onWarning,
}: CachePlanInput): CachePlan => ({
  kind: "inline",
  mode: "anthropic-breakpoint",
  request: withCacheScope(planAnthropic(request, { boundary, ttl }, { onWarning }), scope),
});
