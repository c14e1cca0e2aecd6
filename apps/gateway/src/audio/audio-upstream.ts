import { GatewayError } from "@interlingua/errors";
import type { Dispatcher, FormData } from "undici";
import { type AttemptRecord, attemptRecorder } from "../pipeline/attempt-upstreams.ts";
import { breakerKey } from "../routing/circuit-breaker.ts";
import type { RouteCandidate } from "../routing/model-router.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { PROTOCOLS } from "../upstream/protocols.ts";
import type { UpstreamBody } from "../upstream/send-upstream.ts";
import { noChannelAvailable, upstreamFailureToError } from "../upstream/upstream-error.ts";
import {
  failureFromError,
  failurePolicy,
  statusFailure,
  type UpstreamFailure,
} from "../upstream/upstream-failure.ts";

/** The most of an upstream error body read: enough for any real error object. */
const ERROR_BODY_LIMIT = 64 * 1024;

/** What to send to one channel: built per attempt (the model id and key differ per channel). */
export interface AudioUpstreamRequest {
  readonly headers: Record<string, string>;
  /** JSON text, or a form (undici's, which streams its Blob parts, such as a file on disk). */
  readonly body: string | FormData;
}

export interface AudioReply {
  readonly candidate: RouteCandidate;
  readonly status: number;
  /** The reply's media type, as the upstream declared it. */
  readonly contentType: string | undefined;
  /** Open: the caller streams or reads it, and destroys it if it stops early. */
  readonly body: UpstreamBody;
}

export type AudioUpstreamResult =
  | { ok: true; reply: AudioReply }
  | { ok: false; error: GatewayError; clientGone: boolean };

/**
 * Fails over like the generation pipeline: the next channel only on a network error, timeout or
 * channel-fault status; other 4xx are the caller's and final.
 */
export async function callAudioUpstreams(
  services: GatewayServices,
  candidates: readonly RouteCandidate[],
  path: string,
  build: (candidate: RouteCandidate) => AudioUpstreamRequest | Promise<AudioUpstreamRequest>,
  signal: AbortSignal,
  attempts: AttemptRecord[],
  /** Who the call is for (the token id): one caller alone cannot open a circuit. */
  source: string,
): Promise<AudioUpstreamResult> {
  const breaker = services.router.breaker;
  let lastError: GatewayError | undefined;
  for (const candidate of candidates) {
    if (signal.aborted) break;
    const record = attemptRecorder(attempts, candidate.channel.name);
    const name = breakerKey(candidate.channel.name, candidate.upstreamModel);
    if (!breaker.tryAcquire(name)) {
      record("skipped-open-circuit");
      continue;
    }
    const request = await build(candidate);
    const started = performance.now();
    const sent = await send(services, candidate, path, request, signal);
    const elapsed = Math.round(performance.now() - started);
    if (sent.ok) {
      breaker.onSuccess(name);
      services.router.health.record(candidate.channel.name, true, elapsed);
      record("ok");
      const { status, body, contentType } = sent;
      return { ok: true, reply: { candidate, status, body, contentType } };
    }
    const failure = sent.failure;
    record(failure.kind, failure.kind === "status" ? failure.status : undefined);
    // A call the client abandoned says nothing about the channel.
    if (signal.aborted) break;
    const policy = failurePolicy(failure);
    if (policy.health === "unhealthy") breaker.onFailure(name, source);
    else if (policy.health === "alive") breaker.onSuccess(name);
    services.router.health.record(candidate.channel.name, policy.health !== "unhealthy", elapsed);
    lastError = upstreamFailureToError("openai", failure);
    if (!policy.retry) break;
  }
  if (signal.aborted) {
    // Logged and recorded like a generation whose client left (nobody reads this answer).
    const gone = new GatewayError({ status: 499, message: "the client closed the connection" });
    return { ok: false, error: gone, clientGone: true };
  }
  return { ok: false, error: lastError ?? noChannelAvailable(), clientGone: false };
}

async function send(
  services: GatewayServices,
  candidate: RouteCandidate,
  path: string,
  request: AudioUpstreamRequest,
  signal: AbortSignal,
): Promise<
  | { ok: true; status: number; body: UpstreamBody; contentType: string | undefined }
  | { ok: false; failure: UpstreamFailure }
> {
  const { channel } = candidate;
  let response: Dispatcher.ResponseData;
  try {
    response = await services.agent.request({
      origin: channel.origin,
      path: channel.basePath + path,
      method: "POST",
      headers: { ...request.headers, ...PROTOCOLS[channel.protocol].headers(channel.apiKey) },
      body: request.body,
      signal,
    });
  } catch (error) {
    return { ok: false, failure: failureFromError(error) };
  }
  if (response.statusCode >= 200 && response.statusCode < 300) {
    const type = response.headers["content-type"];
    const contentType = Array.isArray(type) ? type[0] : type;
    return { ok: true, status: response.statusCode, body: response.body, contentType };
  }
  const text = await readCapped(response.body, ERROR_BODY_LIMIT);
  return { ok: false, failure: statusFailure(response.statusCode, response.headers, text ?? "") };
}

/**
 * A body as text, up to `limit` bytes; undefined when it is longer (the rest is not read: the
 * body is destroyed) or fails mid-way.
 */
export async function readCapped(body: UpstreamBody, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const bytes = chunk as Buffer;
      size += bytes.byteLength;
      if (size > limit) {
        body.destroy();
        return undefined;
      }
      chunks.push(bytes);
    }
  } catch {
    return undefined;
  }
  return Buffer.concat(chunks, size).toString("utf8");
}
