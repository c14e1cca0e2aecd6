import type { AssistantPart, FinishReason, Response } from "@interlingua/core-types";
import * as canonical from "@interlingua/core-types/testing";
import { fc } from "../src/testing.js";

/** Finish reasons the messages format can carry: a documented stop_reason, or none at all. */
export const expressibleFinishReason: fc.Arbitrary<FinishReason> = fc.constantFrom<FinishReason>(
  { unified: "stop", raw: "end_turn" },
  { unified: "stop", raw: "stop_sequence" },
  { unified: "length", raw: "max_tokens" },
  { unified: "length", raw: "model_context_window_exceeded" },
  { unified: "tool-calls", raw: "tool_use" },
  { unified: "content-filter", raw: "refusal" },
  { unified: "other", raw: "pause_turn" },
  { unified: "other" },
);

/*
 * Law 2 restriction: a messages result has one reply, no creation time (created is 0), no safety
 * ratings or prompt feedback, no signatures on text or tool calls, and usage always with its
 * 5m/1h split, a service tier and an inference geography (Anthropic's `standard` and
 * `not_available` when none was known) and without per-modality counts.
 */
export const expressibleResponse: fc.Arbitrary<Response> = fc
  .record({ response: canonical.response, finishReason: expressibleFinishReason })
  .map(({ response, finishReason }): Response => {
    const first = response;
    const parts = first.message.parts.map((part): AssistantPart => {
      if (part.type === "text" || part.type === "tool-call") {
        const { signature: _dropped, ...rest } = part;
        return rest;
      }
      return part;
    });
    const usage = { ...response.usage };
    usage.providerExtras = { anthropic: { inferenceGeo: "not_available" } };
    usage.serviceTier ??= "standard";
    usage.cacheWrite1hTokens ??= 0;
    usage.cacheWrite5mTokens ??= usage.cacheWriteTokens - usage.cacheWrite1hTokens;
    const out: Response = {
      id: response.id,
      model: response.model,
      created: 0,
      message: { role: "assistant", parts },
      finishReason,
      usage,
    };
    if (first.stopSequence !== undefined) out.stopSequence = first.stopSequence;
    return out;
  });

/**
 * What a messages stream keeps of a response whose usage arrives at the end (as canonical
 * events bring it): message_delta has counts only, so a cache ttl split of non-zero writes stays
 * behind (warned); with no writes the split is message_start's zeros.
 */
export function streamedUsage(response: Response): Response {
  if (response.usage.cacheWriteTokens === 0) return response;
  const { cacheWrite5mTokens: _5m, cacheWrite1hTokens: _1h, ...usage } = response.usage;
  return { ...response, usage };
}

/** Law 3 and 4's restriction for streams: expressible, with the usage a stream keeps. */
export const expressibleStreamResponse: fc.Arbitrary<Response> =
  expressibleResponse.map(streamedUsage);
