import { mergeResponses, type Warning } from "@interlingua/core-types";
import type { RouteCandidate } from "../routing/model-router.ts";
import { discardBody } from "../upstream/discard-body.ts";
import { linkedAbort } from "../upstream/linked-abort.ts";
import { PROTOCOLS } from "../upstream/protocols.ts";
import type { attemptUpstreams, Committed } from "./attempt-upstreams.ts";
import type { ClientCall, ParsedGeneration } from "./generation-request.ts";
import { decodeMergedOutputs, mergedOutputsBody } from "./merged-outputs-body.ts";

type Attempted = Awaited<ReturnType<typeof attemptUpstreams>>;
type Call = ClientCall & ParsedGeneration;

/**
 * How many upstream calls a request takes: one, or one per output when it asks for several
 * (chat `n`, Gemini `candidateCount`) of a provider that returns one per call (Anthropic, the
 * Responses API), judged by the channel tried first.
 */
export function callsFor(request: Call, candidates: readonly RouteCandidate[]): number {
  const outputs = request.canonical.sampling.n ?? 1;
  const first = candidates[0];
  if (outputs <= 1 || first === undefined) return 1;
  return PROTOCOLS[first.channel.protocol].severalOutputs ? 1 : outputs;
}

/**
 * `count` calls of one output each, at once, as one committed reply of `count` outputs: whole
 * replies merged (core-types `mergeResponses`), streams merged as they come
 * (`mergedOutputsBody`). The first call that fails cancels the others and answers for all.
 */
export async function attemptEachOutput<C extends Call>(
  count: number,
  request: C,
  attempt: (request: C) => Promise<Attempted>,
): Promise<Attempted> {
  const { n: _n, ...sampling } = request.canonical.sampling;
  const cancel = linkedAbort(request.signal);
  const controller = new AbortController();
  const signal =
    cancel.signal === undefined
      ? controller.signal
      : AbortSignal.any([cancel.signal, controller.signal]);
  const single: C = { ...request, canonical: { ...request.canonical, sampling }, signal };
  let results: Attempted[];
  try {
    results = await Promise.all(
      Array.from({ length: count }, async () => {
        const result = await attempt(single);
        if (!result.ok) controller.abort(new Error("another output's call failed"));
        return result;
      }),
    );
  } finally {
    cancel.unlink();
  }
  const storage = results.reduce(
    (sum, r) => sum + (r.ok ? r.committed.cacheStorageTokenHours : r.cacheStorageTokenHours),
    0,
  );
  const committed: Committed[] = [];
  for (const result of results) if (result.ok) committed.push(result.committed);
  // The call that failed first answers (not one that was cancelled because of it).
  const failed = results.find((r) => !r.ok && r.clientGone !== true) ?? results.find((r) => !r.ok);
  if (failed !== undefined && !failed.ok) {
    for (const c of committed) if (c.kind === "stream") discardBody(c.body.rest);
    return { ...failed, cacheStorageTokenHours: storage };
  }
  const [first] = committed;
  if (first === undefined) throw new RangeError("attemptEachOutput needs at least one call");
  const warnings: Warning[] = [
    ...first.warnings,
    {
      type: "mapped",
      feature: "sampling.n",
      message: `${count} outputs were made by ${count} upstream calls of one output each; usage is their sum`,
    },
  ];
  if (first.kind === "json") {
    const responses = committed.map((c) => {
      if (c.kind !== "json") throw new TypeError("calls of one request differ in kind");
      return (
        c.response ?? PROTOCOLS[c.candidate.channel.protocol].upstreamCodec.response.parse(c.json)
      );
    });
    const response = mergeResponses(responses);
    return {
      ok: true,
      committed: { ...first, warnings, response, cacheStorageTokenHours: storage },
    };
  }
  // Each call is read by its own channel's codec: a fallback may have put one on another protocol.
  const calls = committed.map((c) => {
    if (c.kind !== "stream") throw new TypeError("calls of one request differ in kind");
    const { upstreamCodec } = PROTOCOLS[c.candidate.channel.protocol];
    return { body: c.body, decoder: () => upstreamCodec.stream.decoder() };
  });
  return {
    ok: true,
    committed: {
      ...first,
      warnings,
      body: mergedOutputsBody(calls),
      decoder: decodeMergedOutputs,
      cacheStorageTokenHours: storage,
    },
  };
}
