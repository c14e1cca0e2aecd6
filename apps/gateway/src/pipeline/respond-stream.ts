import { guardToolArguments, type SseMessage, type StreamEvent } from "@interlingua/core-types";
import { isChatUsageOnlyChunk } from "@interlingua/fmt-chat";
import { CODECS } from "../codecs.ts";
import type { GatewayServices } from "../services.ts";
import { type ClientFraming, jsonArrayFraming, SSE_FRAMING } from "../stream/client-framing.ts";
import { relayResponse } from "../stream/direct-relay.ts";
import { watchSse } from "../stream/observe-sse.ts";
import { onceFinished } from "../stream/once-finished.ts";
import { passThroughStage } from "../stream/pass-through-stage.ts";
import { PLAIN_CHUNK } from "../stream/plain-chunk.ts";
import { PLAIN_DELTA } from "../stream/plain-delta.ts";
import { reframeStage } from "../stream/reframe-stage.ts";
import { type StreamEnd, startRelay } from "../stream/relay.ts";
import type { RelayStage } from "../stream/relay-stage.ts";
import { translateStage } from "../stream/translate-stage.ts";
import { type SameFormat, UPSTREAM_PROTOCOLS } from "../upstream/upstream-protocols.ts";
import type { Committed } from "./attempt-upstreams.ts";
import { framesOf, upstreamStreamFailed } from "./error-frames.ts";
import { type FillContext, fillContext, fillingDecoder } from "./fill-translated.ts";
import type { GenerationRequest } from "./generation-request.ts";
import { recordEvent, type StreamOutcome } from "./stream-outcome.ts";
import { warningsHeaders } from "./warnings-header.ts";

const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  // Proxies such as nginx would otherwise buffer the stream.
  "x-accel-buffering": "no",
};
const JSON_ARRAY_HEADERS = { "content-type": "application/json; charset=utf-8" };

type StreamCommitted = Extract<Committed, { kind: "stream" }>;

const keepAll = () => true;
const keepAllButUsageOnly = (message: SseMessage) => !isChatUsageOnlyChunk(message.data);

/**
 * A committed upstream stream as the client's stream. Same format: the upstream bytes go through
 * untouched while a parse of them taps usage (or, when the gateway asked for a usage chunk the
 * client did not, whole frames go through without that one; a JSON-array client gets the frames
 * re-framed). Across formats: upstream codec -> canonical events -> client codec, chunk by chunk.
 * A failure after the first byte ends the stream with an error event in the client's format; a
 * client that disconnects has the upstream read on briefly, then cancelled. `onSettled` runs
 * once, after the stream ended, with everything the stream said about itself.
 */
export function streamReply(
  services: GatewayServices,
  request: GenerationRequest,
  committed: StreamCommitted,
  onSettled: (outcome: StreamOutcome & StreamEnd) => void,
): Response {
  const outcome: StreamOutcome = {};
  const framing = request.jsonArrayStream ? jsonArrayFraming() : SSE_FRAMING;
  const stage = stageFor(request, committed, outcome, framing, fillContext(services, request));
  const options = {
    keepAliveMs: request.jsonArrayStream ? undefined : services.keepAliveMs,
    drain: services.drain,
    onEnd: (end: StreamEnd) => onSettled({ ...outcome, ...end }),
  };
  return relayResponse(
    (sink) => startRelay(committed.body, stage, options, sink),
    {
      status: 200,
      // Only what is known before the first byte: the request's warnings, not the stream's own.
      headers: {
        ...(request.jsonArrayStream ? JSON_ARRAY_HEADERS : SSE_HEADERS),
        ...warningsHeaders(committed.warnings),
      },
    },
    request.writesDirectly,
  );
}

function stageFor(
  request: GenerationRequest,
  committed: StreamCommitted,
  outcome: StreamOutcome,
  framing: ClientFraming,
  fill: FillContext,
): RelayStage {
  const format = request.endpoint.format;
  const { codec: upstreamCodec } = UPSTREAM_PROTOCOLS[committed.candidate.channel.protocol];
  const onEvent = (event: StreamEvent) => recordEvent(outcome, event);
  if (!committed.prepared.sameFormat) {
    return translateStage({
      // Across formats a client never gets half-JSON tool arguments (core-types
      // guardToolArguments); the same-format tap below stays unguarded: it sees only some frames.
      decoder: fillingDecoder(
        onceFinished(guardToolArguments(upstreamCodec.stream.decoder())),
        fill,
      ),
      encoder: CODECS[format].stream.encoder({
        includeUsage: request.canonical.includeUsage === true,
      }),
      framing,
      onEvent,
      failed: upstreamStreamFailed,
      fallback: (event) => framesOf(format, event),
    });
  }
  // Same format: the upstream speaks the client's own wire.
  const upstreamFormat = format as SameFormat;
  const plainDelta = PLAIN_DELTA[upstreamFormat];
  const watch = watchSse({
    decoder: upstreamCodec.stream.decoder(),
    onEvent,
    // The frames reach the client as they are: one that is not JSON ends the stream instead.
    strict: true,
    onDecodeError: (error) => {
      outcome.decodeError = error instanceof Error ? error.message : String(error);
    },
    plain:
      plainDelta === undefined
        ? undefined
        : { test: plainDelta, decoder: () => upstreamCodec.stream.decoder() },
  });
  outcome.skippedChars = () => watch.skippedChars();
  const failure = (error: unknown) => {
    outcome.error = { status: 502, type: "bad_gateway", message: String(error) };
    return framesOf(format, upstreamStreamFailed(error));
  };
  const keep = committed.prepared.injectedUsage ? keepAllButUsageOnly : keepAll;
  if (request.jsonArrayStream) return reframeStage(watch, { keep, framing, failure });
  const plainChunk = PLAIN_CHUNK[upstreamFormat];
  if (committed.prepared.injectedUsage)
    return reframeStage(watch, { keep, framing: "raw", failure, plainChunk });
  return passThroughStage(watch, failure, plainChunk);
}
