import type {
  Response as CanonicalResponse,
  UpstreamProtocol,
  Warning,
} from "@interlingua/core-types";
import { type GatewayError, internalError, toGatewayError } from "@interlingua/errors";
import { type CallAccount, type Delivery, openCallAccount } from "../billing/call-account.ts";
import { cachePlanner } from "../cache/cache-planner.ts";
import { storageOnlyCharge } from "../cache/storage-only-charge.ts";
import { upstreamModelHeader, warningsHeaders } from "../contract/client-contract.ts";
import { errorResponse } from "../contract/error-response.ts";
import { type GenAiCall, startGenAiCall } from "../log/gen-ai-span.ts";
import { inSpan } from "../log/tracing.ts";
import {
  beginStored,
  failedBody,
  finishStored,
  recordQuietly,
  stateFields,
  storedBody,
} from "../responses/record-response.ts";
import { type WrittenPlan, writtenPlan } from "../responses/stored-state.ts";
import { routeForEndpoint } from "../routing/model-router.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { asDatabaseError, isDatabaseUnavailable } from "../storage/database-unavailable.ts";
import type { AttemptRecord } from "../upstream/call-channel.ts";
import { CLIENT_PROTOCOLS, PROTOCOLS } from "../upstream/protocols.ts";
import { attemptUpstreams } from "./attempt-upstreams.ts";
import { attemptEachOutput, callsFor } from "./each-output.ts";
import { fillContext } from "./fill-translated.ts";
import type { GenerationRequest } from "./generation-request.ts";
import { inlineFiles, namesFiles } from "./inline-files.ts";
import { jsonDelivery, renderJsonReply, TextReply } from "./respond-json.ts";
import { type StreamSettled, streamReply } from "./respond-stream.ts";

const JSON_HEADERS = { "content-type": "application/json" };

/**
 * The back half of a generation: route, call upstream (with fallback), reply in the client's
 * format. A refusal before the upstream is called (no such model, no room in the quota, a file
 * that cannot be read) is thrown, for the handler to answer; a call that failed upstream is
 * answered here, with its attempts in the log.
 */
export async function runGeneration(
  services: GatewayServices,
  asked: GenerationRequest,
): Promise<Response | TextReply> {
  let request = asked;
  const started = performance.now();
  const { log, endpoint } = request;
  const fail = (error: GatewayError, attempts: AttemptRecord[] = []) => {
    log.info(
      {
        model: request.model,
        stream: request.stream,
        status: error.status,
        error: error.message,
        // The upstream's body stays out of the log: it may quote the channel's key.
        ...(error.upstream === undefined ? {} : { upstreamStatus: error.upstream.status }),
        ...(error.status >= 500 && error.cause !== undefined ? { cause: String(error.cause) } : {}),
        attempts,
        ms: elapsed(),
      },
      "request failed",
    );
    return errorResponse(endpoint.errors, error, request.requestId);
  };
  const elapsed = () => Math.round(performance.now() - started);
  const plan = request.stored;
  // A stored response that cannot be answered is kept as failed, so naming it later says so.
  const failStored = async (error: GatewayError) => {
    if (plan === undefined) return;
    await recordQuietly(services, plan, () =>
      finishStored(services, plan, failedBody(plan, request.model, error)),
    );
  };
  const keepingRefusal = async <T>(step: () => Promise<T>): Promise<T> => {
    try {
      return await step();
    } catch (error) {
      await failStored(toGatewayError(error));
      throw error;
    }
  };
  const { token, model } = request;
  // A refusal before the row is written records nothing: a foreground response has no row yet,
  // and a background one's runner records whatever this call throws (once).
  const route = routeForEndpoint(services.router, token.models, model, endpoint.format);

  // Files named by URL or by a gateway file id travel inline (fetched, size- and type-checked).
  if (namesFiles(request.canonical)) {
    const { userId } = request.token;
    request = { ...request, canonical: await inlineFiles(services, userId, request.canonical) };
  }

  // A background response was written when it was queued.
  const foreground = plan !== undefined && plan.background !== true;
  if (foreground) {
    try {
      await beginStored(services, plan, request.model);
    } catch (error) {
      log.error({ err: error, responseId: plan.responseId }, "could not store the response");
      // An unreachable database is an outage like any other (503 with Retry-After), not a 500.
      if (isDatabaseUnavailable(error)) throw asDatabaseError(error);
      throw internalError(
        "could not store the response (store: true); retry, or send store: false",
      );
    }
  }

  const reserve = () =>
    inSpan("billing.reserve", {}, () =>
      openCallAccount(services, request, route.gatewayModel, started),
    );
  // A foreground response refused now (no quota) is kept failed: naming it later says so.
  const account = await (foreground ? keepingRefusal(reserve) : reserve());

  const attempts: AttemptRecord[] = [];
  // The GenAI span of the call: the attempts are its children, the settlement ends it.
  const genAi = startGenAiCall(
    CLIENT_PROTOCOLS[endpoint.format].operation,
    request.model,
    request.stream,
  );
  const candidates = services.router.plan(route);
  const attempt = (call: GenerationRequest) =>
    attemptUpstreams(
      services.agent,
      services.router,
      call,
      candidates,
      attempts,
      cachePlanner(services, call, route.gatewayModel),
    );
  // One output (nearly every call) needs no look at the channel's protocol.
  const calls = (request.canonical.sampling.n ?? 1) > 1 ? callsFor(request, candidates) : 1;
  const result = await genAi.run(() =>
    calls === 1 ? attempt(request) : attemptEachOutput(calls, request, attempt),
  );
  services.metrics?.attempts(endpoint.name, request.model, attempts, result.ok);
  if (!result.ok) {
    genAi.end({ error: result.error.message });
    account.end({
      status: result.error.status,
      error: result.error.message,
      ...storageOnlyCharge(result.cacheStorageTokenHours),
      // A call cancelled because its client left had reached the upstream: the prompt is charged
      // (an estimate: nothing reported usage), and nothing was delivered.
      ...(result.clientGone === true
        ? {
            delivered: { outputChars: 0, complete: false },
            cacheStorageTokenHours: result.cacheStorageTokenHours,
          }
        : {}),
    });
    await failStored(result.error);
    return fail(result.error, attempts);
  }
  const committed = result.committed;
  genAi.committed(
    PROTOCOLS[committed.candidate.channel.protocol].vendor,
    committed.candidate.upstreamModel,
  );
  const cacheStorageTokenHours = committed.cacheStorageTokenHours;
  const warnings: Warning[] = committed.warnings;
  const summary = {
    model: request.model,
    channel: committed.candidate.channel.name,
    protocol: committed.candidate.channel.protocol,
    upstreamModel: committed.candidate.upstreamModel,
    sameFormat: committed.prepared.sameFormat,
    ...(committed.cachePlan === undefined
      ? {}
      : { cache: committed.cachePlan.mode, cacheReason: committed.cachePlan.reason }),
    stream: request.stream,
    attempts,
  };

  if (committed.kind === "json") {
    let reply: ReturnType<typeof renderJsonReply>;
    try {
      reply = renderJsonReply(
        request,
        committed,
        warnings,
        fillContext(services, request, committed.candidate.channel.protocol),
        // OpenAI's Responses object says whether it is kept; docs/api-reference.md's result has no such field.
        endpoint.format === "responses" && !request.wrap
          ? stateFields(plan, request.wire)
          : undefined,
      );
    } catch (error) {
      const gatewayError = toGatewayError(error);
      // The upstream did the work (and billed it) even though its reply could not be rendered.
      const delivered = jsonDelivery(committed);
      genAi.end({ usage: delivered.usage, error: gatewayError.message });
      account.end({
        status: gatewayError.status,
        usage: delivered.usage,
        delivered: { outputChars: delivered.outputChars, complete: true },
        channel: summary.channel,
        error: gatewayError.message,
        cacheStorageTokenHours,
      });
      await failStored(gatewayError);
      return fail(gatewayError, attempts);
    }
    // Kept before the client hears of it: its next turn may name this response at once.
    const translated = reply.translated;
    if (plan !== undefined && translated !== undefined) {
      await recordQuietly(services, plan, () =>
        finishStored(services, plan, storedBody(translated, plan), summary.protocol),
      );
    }
    // Usage is read after the reply is on its way; the client waits for neither charge nor log.
    setImmediate(() => {
      try {
        // Read lazily: a reported usage needs no parse of the reply unless a trace or an
        // estimate asks for its finish reason or characters (respond-json.ts jsonDelivery).
        const delivered = reply.delivered();
        const usage = delivered.usage;
        genAi.end(delivered);
        account.end({
          status: 200,
          usage,
          delivered: new StreamDelivery(true, () => delivered.outputChars),
          channel: summary.channel,
          cacheStorageTokenHours,
        });
        log.info({ ...summary, status: 200, usage, warnings, ms: elapsed() }, "request completed");
      } catch (error) {
        settlingFailed(log, error, "request");
      }
    });
    // Redacted here, once: nothing downstream reads the body back to redact it.
    return new TextReply(
      200,
      {
        ...JSON_HEADERS,
        ...warningsHeaders(warnings),
        ...upstreamModelHeader(committed.candidate.upstreamModel),
      },
      services.redactor.active ? services.redactor.redact(reply.body) : reply.body,
    );
  }

  const streamClosed = services.metrics?.streamOpened(endpoint.name, started);
  const { response, settled, accumulated } = streamReply(services, request, committed);
  whenSettled(services, settled, {
    // Its row holds the conversation already: the settling stream keeps none of it.
    plan: plan === undefined ? undefined : writtenPlan(plan),
    accumulated,
    streamClosed,
    genAi,
    account,
    summary,
    log,
    warnings,
    cacheStorageTokenHours,
    started,
  });
  return response;
}

/** What a stream's end settles: its stored response, its span, its charge and its log line. */
interface StreamSettlement {
  readonly plan: WrittenPlan | undefined;
  readonly accumulated: ((endedOnly: boolean) => CanonicalResponse) | undefined;
  readonly streamClosed: (() => void) | undefined;
  readonly genAi: GenAiCall;
  readonly account: CallAccount;
  readonly summary: Record<string, unknown> & {
    readonly channel: string;
    readonly protocol: UpstreamProtocol;
  };
  readonly log: GenerationRequest["log"];
  readonly warnings: readonly Warning[];
  readonly cacheStorageTokenHours: number;
  readonly started: number;
}

/**
 * Settles the stream once it ended. The callback that waits (as long as the stream lasts) is made
 * here, not in `runGeneration`: a closure keeps its whole scope, and that one holds the request
 * and its body.
 */
function whenSettled(
  services: GatewayServices,
  settled: Promise<StreamSettled>,
  settlement: StreamSettlement,
): void {
  void settled
    .then((outcome) => settleStream(services, outcome, settlement))
    .catch((error: unknown) => settlingFailed(settlement.log, error, "stream"));
}

/**
 * A throw after the reply went out has no request left to fail: it is logged, never left to
 * end the process (and every other call's stream with it).
 */
function settlingFailed(log: GenerationRequest["log"], error: unknown, what: string): void {
  try {
    log.error({ err: error }, `settling a ${what} after its reply failed`);
  } catch {
    // The log itself is what failed: nothing is left to tell.
  }
}

/** What a stream that ended leaves to do: the stored response, the span, the charge, the log. */
async function settleStream(
  services: GatewayServices,
  outcome: StreamSettled,
  settlement: StreamSettlement,
): Promise<void> {
  const { plan, accumulated, streamClosed, genAi, account, summary, log, warnings } = settlement;
  const { cacheStorageTokenHours, started } = settlement;
  const elapsed = () => Math.round(performance.now() - started);
  if (plan !== undefined && accumulated !== undefined) {
    const broken = outcome.error ?? (outcome.complete ? undefined : interrupted(outcome));
    // A stream that broke off keeps the items it finished, as its response.failed frame lists
    // them: a half-written call or text would be replayed as finished by a later turn.
    const said = storedBody(accumulated(broken !== undefined), plan);
    await recordQuietly(services, plan, () =>
      finishStored(
        services,
        plan,
        broken === undefined
          ? said
          : { ...said, status: "failed", error: { code: broken.type, message: broken.message } },
        summary.protocol,
      ),
    );
  }
  streamClosed?.();
  genAi.end({
    usage: outcome.usage,
    finishReason: outcome.finishReason,
    ...(outcome.error === undefined ? {} : { error: outcome.error.message }),
  });
  const { skippedChars, ...said } = outcome;
  const chars = () => (outcome.outputChars ?? 0) + (skippedChars?.() ?? 0);
  // An upstream that failed before delivering anything and reported no usage (a Responses
  // `response.failed` right after `response.created`, an event-less stream): nothing is
  // charged, the hold is refunded and the row logged (issue 26, item 9). A client that left
  // is another matter: its prompt reached the upstream and is charged.
  const failed = outcome.error !== undefined || outcome.decodeError !== undefined;
  if (failed && outcome.usage === undefined && chars() === 0) {
    account.end({
      status: outcome.error?.status ?? 502,
      channel: summary.channel,
      error: outcome.error?.message ?? outcome.decodeError,
      ...storageOnlyCharge(cacheStorageTokenHours),
    });
    log.info(
      { ...summary, status: outcome.error?.status ?? 502, ...said, warnings, ms: elapsed() },
      "stream failed before delivering anything: not charged",
    );
    return;
  }
  account.end({
    status: outcome.error?.status ?? 200,
    usage: outcome.usage,
    channel: summary.channel,
    error: outcome.error?.message ?? outcome.decodeError,
    // The upstream delivered. A stream that was cut off, drained past its bound, ended with an
    // error event or could not be decoded has no final usage: it is charged an estimate from
    // what went by (never less than the usage it did report). Measuring what the tap let by
    // undecoded decodes its sample, so only that estimate reads it.
    delivered: new StreamDelivery(
      outcome.complete && outcome.error === undefined && outcome.decodeError === undefined,
      chars,
    ),
    cacheStorageTokenHours,
  });
  log.info(
    { ...summary, status: outcome.error?.status ?? 200, ...said, warnings, ms: elapsed() },
    "stream completed",
  );
}

/** Why a stream that did not run to its end stopped, as a stored response's error. */
const interrupted = (outcome: { clientDisconnected: boolean; readError?: string }) => ({
  type: outcome.clientDisconnected ? "client_disconnected" : "stream_interrupted",
  message: outcome.clientDisconnected
    ? "the client left before the response was complete"
    : `the upstream stream ended early${outcome.readError === undefined ? "" : `: ${outcome.readError}`}`,
});

/**
 * What a stream delivered, its characters counted only when billing reads them (counting decodes
 * the tap's sample of undecoded deltas; only an estimate needs it). A class: an object literal
 * with a getter costs about a microsecond per stream to create, a class instance next to nothing.
 */
class StreamDelivery implements Delivery {
  readonly complete: boolean;
  readonly #chars: () => number;

  constructor(complete: boolean, chars: () => number) {
    this.complete = complete;
    this.#chars = chars;
  }

  get outputChars(): number {
    return this.#chars();
  }
}
