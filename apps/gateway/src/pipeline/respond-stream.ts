import type { SseMessage } from "@interlingua/core-types";
import { decodeSse, encodeSse, encodeSseEvent, withKeepAlive } from "@interlingua/sse";
import { CODECS } from "../codecs.ts";
import type { GatewayServices } from "../services.ts";
import { detachOnCancel, type StreamEnd } from "../stream/detach-on-cancel.ts";
import { dropUsageOnlyChunks, isUsageOnlyMessage } from "../stream/drop-usage-only-chunks.ts";
import { jsonArrayFrames } from "../stream/json-array-frames.ts";
import { reframeSse, type SseObserver, tapSse } from "../stream/observe-sse.ts";
import { recoverStreamErrors } from "../stream/recover-stream-errors.ts";
import { UPSTREAM_PROTOCOLS } from "../upstream/upstream-protocols.ts";
import type { Committed } from "./attempt-upstreams.ts";
import { framesOf, upstreamStreamFailed } from "./error-frames.ts";
import type { GenerationRequest } from "./generation-request.ts";
import { observeEvents, recordEvent, type StreamOutcome } from "./stream-outcome.ts";

const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  // Proxies such as nginx would otherwise buffer the stream.
  "x-accel-buffering": "no",
};
const JSON_ARRAY_HEADERS = { "content-type": "application/json; charset=utf-8" };

/** How long the request log waits for the usage tap to finish after the stream ended. */
const TAP_SETTLE_MS = 1000;

const encoder = new TextEncoder();

type StreamCommitted = Extract<Committed, { kind: "stream" }>;

/**
 * A committed upstream stream as the client's stream. Same format: the upstream bytes go through
 * untouched while a tap decodes a copy for usage. Across formats: SSE -> upstream codec ->
 * canonical events -> client codec -> SSE, one frame at a time. A failure after the first byte
 * ends the stream with an error event in the client's format. Either way the client end is
 * detached on disconnect so the upstream is still read to its final usage.
 */
export function streamReply(
  services: GatewayServices,
  request: GenerationRequest,
  committed: StreamCommitted,
  onSettled: (outcome: StreamOutcome & StreamEnd) => void,
): Response {
  const format = request.endpoint.format;
  const upstreamCodec = CODECS[UPSTREAM_PROTOCOLS[committed.candidate.channel.protocol].format];
  const outcome: StreamOutcome = {};
  const failedFrames = (error: unknown) => {
    outcome.error = { status: 502, type: "bad_gateway", message: String(error) };
    return framesOf(format, upstreamStreamFailed(error));
  };
  const toClientBytes = (frames: ReadableStream<SseMessage>) =>
    request.jsonArrayStream
      ? frames.pipeThrough(jsonArrayFrames())
      : withKeepAlive(frames.pipeThrough(encodeSse()), services.keepAliveMs);

  let tapDone: Promise<void> = Promise.resolve();
  let bytes: ReadableStream<Uint8Array>;
  if (committed.prepared.sameFormat) {
    // One parse of the upstream frames serves the usage tap and any re-framing.
    const observer: SseObserver = {
      decoder: upstreamCodec.stream.decoder(),
      onEvent: (event) => recordEvent(outcome, event),
      onDecodeError: (error) => {
        outcome.decodeError = error instanceof Error ? error.message : String(error);
      },
    };
    if (request.jsonArrayStream) {
      // Framing must change to a JSON array.
      const tap = tapSse(observer);
      tapDone = tap.done;
      let frames: ReadableStream<SseMessage> = committed.body
        .pipeThrough(tap.stream)
        .pipeThrough(decodeSse());
      if (committed.prepared.injectedUsage) frames = frames.pipeThrough(dropUsageOnlyChunks());
      bytes = toClientBytes(recoverStreamErrors(frames, failedFrames));
    } else if (committed.prepared.injectedUsage) {
      // The usage chunk the client did not ask for is dropped; each upstream chunk's frames go
      // out re-encoded as one chunk, so only whole frames are ever sent.
      const reframed = committed.body.pipeThrough(
        reframeSse(observer, (message) => !isUsageOnlyMessage(message)),
      );
      const recovered = recoverStreamErrors(reframed, async (error) => [
        encoder.encode((await failedFrames(error)).map((frame) => encodeSseEvent(frame)).join("")),
      ]);
      bytes = withKeepAlive(recovered, services.keepAliveMs);
    } else {
      const tap = tapSse(observer);
      tapDone = tap.done;
      // The blank line first ends whatever frame the failure cut in half.
      const recovered = recoverStreamErrors(
        committed.body.pipeThrough(tap.stream),
        async (error) => [
          encoder.encode(
            `\n\n${(await failedFrames(error)).map((frame) => encodeSseEvent(frame)).join("")}`,
          ),
        ],
      );
      bytes = withKeepAlive(recovered, services.keepAliveMs);
    }
  } else {
    const events = recoverStreamErrors(
      committed.body.pipeThrough(decodeSse()).pipeThrough(upstreamCodec.stream.decode()),
      (error) => [upstreamStreamFailed(error)],
    ).pipeThrough(observeEvents(outcome));
    bytes = toClientBytes(
      events.pipeThrough(
        CODECS[format].stream.encode({ includeUsage: request.canonical.includeUsage === true }),
      ),
    );
  }

  const body = detachOnCancel(bytes, services.drain, (end) => {
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, TAP_SETTLE_MS).unref());
    void Promise.race([tapDone, timeout]).then(() => onSettled({ ...outcome, ...end }));
  });
  return new Response(body, {
    status: 200,
    headers: request.jsonArrayStream ? JSON_ARRAY_HEADERS : SSE_HEADERS,
  });
}
