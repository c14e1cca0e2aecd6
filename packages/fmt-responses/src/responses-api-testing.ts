/**
 * fast-check arbitraries of OpenAI's real Responses objects (the `responses` result wire):
 * message, reasoning and function_call output items, a completed or incomplete status, usage with
 * its details. Every value passes `responsesResponseSchema` (a property test proves it).
 */
import type { Request, Response } from "@interlingua/core-types";
import { fc, identifier, logprobValue, text, tokenCount } from "@interlingua/core-types/testing";
import type { ResponsesResponseWire } from "./responses-api-wire.js";
import { expressibleInterlinguaRequest, expressibleStreamResponse } from "./testing.js";

const nullable = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: 4, arbitrary: arb }, { weight: 1, arbitrary: fc.constant(null) });

const itemId = (prefix: string) => identifier.map((id) => `${prefix}_${id}`);

const apiTopLogprob = fc.record({
  token: fc.string({ maxLength: 6 }),
  logprob: logprobValue,
  bytes: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 4 }),
});
/** An output_text token (OpenAI's LogProb: bytes and top_logprobs always present). */
const apiLogprob = fc
  .tuple(apiTopLogprob, fc.array(apiTopLogprob, { maxLength: 3 }))
  .map(([token, top]) => ({ ...token, top_logprobs: top }));

export const outputMessage = fc.record({
  type: fc.constant("message"),
  id: itemId("msg"),
  status: fc.constant("completed"),
  role: fc.constant("assistant" as const),
  content: fc.array(
    fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record(
          {
            type: fc.constant("output_text"),
            text: text(),
            annotations: fc.constant([]),
            logprobs: fc.array(apiLogprob, { maxLength: 3 }),
          },
          { requiredKeys: ["type", "text", "annotations"] },
        ),
      },
      { weight: 1, arbitrary: fc.record({ type: fc.constant("refusal"), refusal: text() }) },
    ),
    { maxLength: 2 },
  ),
});

export const outputReasoning = fc.record(
  {
    type: fc.constant("reasoning"),
    id: itemId("rs"),
    summary: fc.array(fc.record({ type: fc.constant("summary_text"), text: text() }), {
      maxLength: 2,
    }),
    // Opaque bytes as OpenAI sends them (base64url-ish), never an interlingua marker.
    encrypted_content: nullable(fc.stringMatching(/^gAAAA[A-Za-z0-9_=-]{0,40}$/)),
  },
  { requiredKeys: ["type", "id", "summary"] },
);

export const outputFunctionCall = fc.record({
  type: fc.constant("function_call"),
  id: itemId("fc"),
  call_id: itemId("call"),
  // Never the parallel-call wrapper's name, which parse expands (expand-parallel-wrapper.ts).
  name: identifier.map((id) => `fn_${id}`),
  arguments: fc.oneof(fc.constant(""), fc.constant("{}"), fc.constant('{"city":"Paris"}')),
  status: fc.constant("completed"),
});

export const responseWire: fc.Arbitrary<ResponsesResponseWire> = fc
  .record({
    id: identifier.map((id) => `resp_${id}`),
    created_at: fc.nat({ max: 2_000_000_000 }),
    model: fc.constantFrom("gpt-5.1-codex-max", "txtA-5.2-pro"),
    output: fc.array(fc.oneof(outputMessage, outputReasoning, outputFunctionCall), {
      maxLength: 5,
    }),
    ending: fc.constantFrom(
      { status: "completed", incomplete_details: null },
      { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } },
      { status: "incomplete", incomplete_details: { reason: "content_filter" } },
    ),
    usage: nullable(
      fc.record({
        input: tokenCount,
        cached: tokenCount,
        output: tokenCount,
        reasoning: tokenCount,
      }),
    ),
  })
  .map(({ ending, usage, ...rest }) => ({
    ...rest,
    object: "response" as const,
    ...ending,
    error: null,
    usage:
      usage === null
        ? null
        : {
            input_tokens: usage.input + usage.cached,
            input_tokens_details: { cached_tokens: usage.cached },
            output_tokens: usage.output + usage.reasoning,
            output_tokens_details: { reasoning_tokens: usage.reasoning },
            total_tokens: usage.input + usage.cached + usage.output + usage.reasoning,
          },
  }));

/**
 * A request `responses` carries losslessly (law 2): what the spec's shape carries
 * (`expressibleInterlinguaRequest`), except that a function tool may have no description (the
 * flat tool's is optional).
 */
export function expressibleRequest(request: Request): Request {
  const out = expressibleInterlinguaRequest(request);
  const originals = request.tools.filter((tool) => tool.type === "function");
  let i = 0;
  out.tools = out.tools.map((tool) => {
    if (tool.type !== "function") return tool;
    const original = originals[i++];
    if (original?.description !== undefined) return tool;
    const { description: _, ...rest } = tool;
    return rest;
  });
  return out;
}

/** A response the Responses object carries losslessly: exactly what its stream carries. */
export const expressibleResponse = (response: Response): Response =>
  expressibleStreamResponse(response);
