// Apart from response.ts, which holds zod schemas: the codecs call these helpers, and a bundler
// drops a module none of whose exports is used, but never a top-level schema call in one it keeps.
import {
  joinResponseProviderExtras,
  splitResponseProviderExtras,
} from "./provider-extras-split.js";
import type { Alternative, IndexedOutput, Response, ResponseBase } from "./response.js";
import type { Warning } from "./warning.js";

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
