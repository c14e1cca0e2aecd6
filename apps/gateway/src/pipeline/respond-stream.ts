import {
  type Response as CanonicalResponse,
  guardToolArguments,
  isStreamCut,
  type PushTransformer,
  REPLY_MODEL_FIELD,
  renameReplyModel,
  type SseMessage,
  StreamAccumulator,
  type StreamEvent,
  type StreamFraming,
} from "@interlingua/core-types";
import { isChatUsageOnlyChunk } from "@interlingua/fmt-chat/tables";
import { nativeJsonArrayFraming } from "@interlingua/fmt-native/tables";
import { sseFraming } from "@interlingua/sse";
import {
  upstreamModelHeader,
  warningsComment,
  warningsHeaders,
} from "../contract/client-contract.ts";
import { stateFields } from "../responses/record-response.ts";
import { withSnapshotFields } from "../responses/snapshot-fields.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { relayResponse } from "../stream/direct-relay.ts";
import { watchSse } from "../stream/observe-sse.ts";
import { onceFinished } from "../stream/once-finished.ts";
import { passThroughStage } from "../stream/pass-through-stage.ts";
import { reframeStage } from "../stream/reframe-stage.ts";
import { type StreamEnd, startRelay } from "../stream/relay.ts";
import type { RelayStage } from "../stream/relay-stage.ts";
import { translateStage } from "../stream/translate-stage.ts";
import { CLIENT_PROTOCOLS, PROTOCOLS } from "../upstream/protocols.ts";
import type { Committed } from "./attempt-upstreams.ts";
import { framesOf, upstreamStreamFailed } from "./error-frames.ts";
import { type FillContext, fillContext, fillingDecoder } from "./fill-translated.ts";
import type { GenerationRequest } from "./generation-request.ts";
import { recordEvent, type StreamOutcome } from "./stream-outcome.ts";

const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  // Proxies such as nginx would otherwise buffer the stream.
  "x-accel-buffering": "no",
};
const JSON_ARRAY_HEADERS = { "content-type": "application/json; charset=utf-8" };

type StreamCommitted = Extract<Committed, { kind: "stream" }>;

/** How a stream ended and everything it said about itself (usage, finish, errors, sizes). */
export type StreamSettled = StreamOutcome & StreamEnd;

/** A stream's response, and its outcome once it ended (never, if the relay never started). */
export interface StreamReply {
  readonly response: Response;
  readonly settled: Promise<StreamSettled>;
  /** What the stream said, as one response: kept only for a stored responses call. */
  /** `endedOnly`: without the parts the stream broke off in (core-types StreamAccumulator). */
  readonly accumulated?: (endedOnly: boolean) => CanonicalResponse;
}

const keepAll = () => true;

/** Whether the client's stream may carry SSE comments (protocol `streamComments`). */
const comments = (request: GenerationRequest): boolean =>
  !request.jsonArrayStream && CLIENT_PROTOCOLS[request.endpoint.format].streamComments;
const keepAllButUsageOnly = (message: SseMessage) => !isChatUsageOnlyChunk(message.data);

/**
 * A committed upstream stream as the client's stream. Same format: the upstream bytes go through
 * untouched while a parse of them taps usage (or, when the gateway asked for a usage chunk the
 * client did not, whole frames go through without that one; a JSON-array client gets the frames
 * re-framed). Across formats: upstream codec -> canonical events -> client codec, chunk by chunk.
 * A failure after the first byte ends the stream with an error event in the client's format; a
 * client that disconnects has the upstream read on briefly, then cancelled. Returned with the
 * response: `settled`, which resolves once the stream ended, with everything it said about itself.
 */
export function streamReply(
  services: GatewayServices,
  request: GenerationRequest,
  committed: StreamCommitted,
): StreamReply {
  const outcome: StreamOutcome = {};
  // A native client without `alt=sse` reads Gemini's streamed JSON array instead of SSE.
  const framing = request.jsonArrayStream ? nativeJsonArrayFraming() : sseFraming;
  const accumulator = request.stored === undefined ? undefined : new StreamAccumulator();
  const fill = {
    ...fillContext(services, request, committed.candidate.channel.protocol),
    toolNames: committed.prepared.toolNames,
  };
  const stage = stageFor(request, committed, outcome, framing, fill, accumulator);
  let onEnd!: (end: StreamEnd) => void;
  const settled = new Promise<StreamSettled>((resolve) => {
    onEnd = (end) => resolve({ ...outcome, ...end });
  });
  const options = {
    // A keep-alive is an SSE comment, which a JSON array cannot hold and Gemini's clients fail on.
    keepAliveMs: comments(request) ? services.keepAliveMs : undefined,
    drain: services.drain,
    onEnd,
  };
  // The relay lives as long as the stream: it keeps the upstream body, not the whole call.
  const upstream = committed.body;
  const response = relayResponse(
    (sink) => startRelay(upstream, stage, options, sink),
    {
      status: 200,
      // Only what is known before the first byte: the request's warnings, not the stream's own.
      headers: {
        ...(request.jsonArrayStream ? JSON_ARRAY_HEADERS : SSE_HEADERS),
        ...warningsHeaders(committed.warnings),
        ...upstreamModelHeader(committed.candidate.upstreamModel),
      },
    },
    request.writesDirectly,
  );
  return accumulator === undefined
    ? { response, settled }
    : { response, settled, accumulated: (endedOnly) => accumulator.result({ endedOnly }) };
}

function stageFor(
  request: GenerationRequest,
  committed: StreamCommitted,
  outcome: StreamOutcome,
  framing: StreamFraming,
  fill: FillContext,
  accumulator?: StreamAccumulator,
): RelayStage {
  // The stage's closures live as long as the stream, and V8 keeps a scope's captured variables
  // for all of them: they read these, never `request`, which holds the client's body twice.
  const format = request.endpoint.format;
  const requestId = request.requestId;
  const showComments = comments(request);
  const { upstreamCodec } = PROTOCOLS[committed.candidate.channel.protocol];
  const onEvent =
    accumulator === undefined
      ? (event: StreamEvent) => recordEvent(outcome, event)
      : (event: StreamEvent) => {
          recordEvent(outcome, event);
          accumulator.push(event);
        };
  if (!committed.prepared.sameFormat) {
    const encoder = CLIENT_PROTOCOLS[format].codec.stream.encoder({
      providerExtras: request.canonical.providerExtras,
      requestId: request.requestId,
      logprobs: request.canonical.logprobs,
      onWarning: (warning) => {
        outcome.streamWarnings ??= [];
        outcome.streamWarnings.push(warning);
      },
    });
    return translateStage({
      // Across formats a client never gets half-JSON tool arguments (core-types
      // guardToolArguments); the same-format tap below stays unguarded: it sees only some frames.
      decoder: fillingDecoder(
        onceFinished(guardToolArguments((committed.decoder ?? upstreamCodec.stream.decoder)())),
        fill,
      ),
      // A responses stream's snapshots say whether the response is kept.
      encoder:
        format === "responses"
          ? withSnapshotFields(encoder, stateFields(request.stored, request.wire))
          : encoder,
      framing,
      onEvent,
      failed: upstreamStreamFailed,
      fallback: (event) => framesOf(format, event, requestId),
      // The headers went before the stream's own warnings were known: an SSE client finds them
      // in a comment at the end (a JSON-array stream has no comments; the log keeps them).
      closing: () => (showComments ? warningsComment(outcome.streamWarnings) : ""),
    });
  }
  // Same format: the upstream speaks the client's own wire, and its codec knows which frames the
  // watch needs (none skipped for Gemini, whose usage rides on every frame).
  const frames = upstreamCodec.stream.frames;
  // The upstream's bytes reach the client as they are, so a stream its decoder finds cut (no
  // terminal event: core-types stream-cut.ts) gets the client's failure frames appended.
  let cut: StreamEvent | undefined;
  const watch = watchSse({
    decoder: noticingCut(upstreamCodec.stream.decoder(), (event) => {
      cut = event;
    }),
    onEvent,
    // The frames reach the client as they are: one that is not JSON ends the stream instead.
    strict: true,
    onDecodeError: (error) => {
      outcome.decodeError = error instanceof Error ? error.message : String(error);
    },
    plain:
      frames === undefined
        ? undefined
        : { test: frames.plain, decoder: () => upstreamCodec.stream.decoder() },
  });
  outcome.skippedChars = () => watch.skippedChars();
  const failure = (error: unknown) => {
    outcome.error = { status: 502, type: "bad_gateway", message: String(error) };
    return framesOf(format, upstreamStreamFailed(error), requestId);
  };
  const ending = () => (cut === undefined ? [] : framesOf(format, cut, requestId));
  const keep = committed.prepared.injectedUsage ? keepAllButUsageOnly : keepAll;
  // The reply names the model as the client did. Chat and Gemini name it in every frame, so only
  // a name that differs costs the fast path its unparsed runs; messages name it once, up front.
  const field = REPLY_MODEL_FIELD[format];
  const renamed = !field.everyFrame || committed.candidate.upstreamModel !== request.model;
  const clientModel = request.model;
  const rename = renamed
    ? (text: string) => renameReplyModel(format, text, clientModel)
    : undefined;
  // The fields the client's format always has that the provider may leave out (message_start's
  // stop_details, an error's request id): edits of the frames the rename sees.
  const relayEdit = CLIENT_PROTOCOLS[format].relayEdits?.frame;
  const edit = relayEdit === undefined ? undefined : (text: string) => relayEdit(text, requestId);
  const rewrite =
    rename === undefined || edit === undefined
      ? (rename ?? edit)
      : (text: string) => edit(rename(text));
  if (request.jsonArrayStream)
    return reframeStage(watch, { keep, framing, failure, rewrite, ending });
  if (committed.prepared.injectedUsage || rewrite !== undefined) {
    const skip = rewrite === undefined || !field.everyFrame ? frames : undefined;
    return reframeStage(watch, { keep, framing: "raw", failure, frames: skip, rewrite, ending });
  }
  return passThroughStage(watch, failure, frames, ending);
}

/** The decoder, telling `onCut` when the end of its input finds the stream cut. */
function noticingCut(
  decoder: PushTransformer<SseMessage, StreamEvent>,
  onCut: (event: StreamEvent) => void,
): PushTransformer<SseMessage, StreamEvent> {
  return {
    push: (message, emit) => decoder.push(message, emit),
    end: (emit) =>
      decoder.end((event) => {
        if (isStreamCut(event)) onCut(event);
        emit(event);
      }),
  };
}
