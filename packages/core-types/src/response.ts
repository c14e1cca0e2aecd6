import * as z from "zod/mini";
import { finishReasonSchema } from "./finish-reason.js";
import { outputLogprobsSchema } from "./logprobs.js";
import { assistantMessageSchema } from "./message.js";
import {
  joinResponseProviderExtras,
  outputProviderExtrasSchema,
  responseProviderExtrasSchema,
  splitResponseProviderExtras,
} from "./provider-extras.js";
import { usageSchema } from "./usage.js";
import type { Warning } from "./warning.js";
import { extrasSchema } from "./wire-format.js";
import { zObject } from "./zod-object.js";

/** What one generated output holds; the response carries its primary output's at its top level. */
const outputFields = {
  message: assistantMessageSchema,
  finishReason: finishReasonSchema,
  /** The stop sequence that ended generation, when the upstream names it. */
  stopSequence: z.exactOptional(z.string()),
  /** Token log probabilities, when the request asked for them (or the upstream volunteers a mean). */
  logprobs: z.exactOptional(outputLogprobsSchema),
};

/**
 * A further output, when the request asked for more than one (chat `n`, Gemini
 * `candidateCount`); the primary output is the response's own fields.
 */
export const alternativeSchema = zObject({
  /** Its position among the outputs: 1 and up, the primary output being 0. */
  index: z.number().check(z.int()).check(z.positive()),
  ...outputFields,
  /** Provider-only fields of this output (Gemini safety ratings), by provider. */
  providerExtras: z.exactOptional(outputProviderExtrasSchema),
});
export type Alternative = z.infer<typeof alternativeSchema>;

export const responseSchema = zObject({
  id: z.string(),
  model: z.string(),
  /** Unix seconds. */
  created: z.number().check(z.int()).check(z.nonnegative()),
  // The primary output, directly: every format has one, and most have only that.
  ...outputFields,
  /** Outputs beyond the primary one, in the upstream's order; omitted when there are none. */
  alternatives: z.exactOptional(z.array(alternativeSchema)),
  /**
   * The upstream sent no primary output at all (chat `choices: []`, Gemini without candidates):
   * `message` is then empty and `finishReason` is `other`, and renderers write none either.
   */
  noOutput: z.exactOptional(z.literal(true)),
  usage: usageSchema,
  /**
   * Provider-only fields of the whole reply (Gemini prompt feedback) and of its primary output
   * (Gemini safety ratings), by provider.
   */
  providerExtras: z.exactOptional(responseProviderExtrasSchema),
  extras: z.exactOptional(extrasSchema),
});
export type Response = z.infer<typeof responseSchema>;

/** A response without its outputs: what `withOutputs` completes. */
export type ResponseBase = Omit<Response, keyof typeof outputFields | "alternatives" | "noOutput">;

/**
 * One output with its position (0: the primary output), for formats that list several (chat
 * `choices`, Gemini `candidates`); `outputsOf` and `withOutputs` convert.
 */
export type IndexedOutput = Omit<Alternative, "index"> & { index: number };

/** The response's outputs in order: the primary one first (unless `noOutput`), then alternatives. */
export function outputsOf(response: Response): IndexedOutput[] {
  const outputs: IndexedOutput[] = [];
  if (response.noOutput !== true) {
    const primary: IndexedOutput = {
      index: 0,
      message: response.message,
      finishReason: response.finishReason,
    };
    if (response.stopSequence !== undefined) primary.stopSequence = response.stopSequence;
    if (response.logprobs !== undefined) primary.logprobs = response.logprobs;
    const { output } = splitResponseProviderExtras(response.providerExtras);
    if (output !== undefined) primary.providerExtras = output;
    outputs.push(primary);
  }
  outputs.push(...(response.alternatives ?? []));
  return outputs;
}

/**
 * `base` with the outputs of a format that lists several: the one at index 0 is the primary
 * output (none: `noOutput`), the others alternatives in their order. What this shape cannot hold
 * is reported, never dropped silently: a primary output that was not listed first is moved to
 * the front (`mapped`), and a second output at index 0 is dropped. `path(i)` names the i-th
 * listed output in a warning.
 */
export function withOutputs(
  base: ResponseBase,
  outputs: readonly IndexedOutput[],
  onWarning: ((warning: Warning) => void) | undefined,
  path: (position: number) => string,
): Response {
  let primary: IndexedOutput | undefined;
  const alternatives: Alternative[] = [];
  outputs.forEach((output, position) => {
    if (output.index !== 0) {
      alternatives.push(output as Alternative);
      return;
    }
    if (primary !== undefined) {
      onWarning?.({
        type: "dropped",
        feature: path(position),
        message: "a second output at index 0 cannot be carried",
      });
      return;
    }
    if (position !== 0) {
      onWarning?.({
        type: "mapped",
        feature: path(position),
        message: "the output at index 0 is carried first",
      });
    }
    primary = output;
  });
  const response = { ...base } as Response;
  const reply = splitResponseProviderExtras(base.providerExtras).reply;
  if (primary === undefined) {
    response.message = { role: "assistant", parts: [] };
    response.finishReason = { unified: "other" };
    response.noOutput = true;
  } else {
    response.message = primary.message;
    response.finishReason = primary.finishReason;
    if (primary.stopSequence !== undefined) response.stopSequence = primary.stopSequence;
    if (primary.logprobs !== undefined) response.logprobs = primary.logprobs;
  }
  const extras = joinResponseProviderExtras(reply, primary?.providerExtras);
  if (extras === undefined) delete response.providerExtras;
  else response.providerExtras = extras;
  if (alternatives.length > 0) response.alternatives = alternatives;
  return response;
}

/** `response` with each of its outputs (`outputsOf`) replaced by what `map` makes of it. */
export function mapOutputs(
  response: Response,
  map: (output: IndexedOutput, position: number) => IndexedOutput,
): Response {
  const {
    message: _message,
    finishReason: _finishReason,
    stopSequence: _stopSequence,
    logprobs: _logprobs,
    alternatives: _alternatives,
    noOutput: _noOutput,
    ...base
  } = response;
  return withOutputs(base, outputsOf(response).map(map), undefined, String);
}
