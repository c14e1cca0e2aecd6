import type { CacheAnalysis } from "@interlingua/cache-control";
import type { Warning } from "@interlingua/core-types";
import { GatewayError, modelNotFound, permissionDenied } from "@interlingua/errors";
import { terminalStreamEvent } from "@interlingua/fmt-responses/tables";
import { decodeSse } from "@interlingua/sse";
import type { AuthenticatedToken } from "../auth/token-store.ts";
import { newRequestId, WARNINGS_HEADER, wrapJsonText } from "../contract/client-contract.ts";
import { ENDPOINTS } from "../contract/endpoints.ts";
import { requestLog } from "../log/request-log.ts";
import type { GenerationRequest } from "../pipeline/generation-request.ts";
import { TextReply } from "../pipeline/respond-json.ts";
import { runGeneration } from "../pipeline/run-generation.ts";
import { JobRuns } from "../queue/job-runs.ts";
import { echoFields } from "../responses/echo-fields.ts";
import { beginStored, failedBody, openBody } from "../responses/record-response.ts";
import { followResponse } from "../responses/response-events.ts";
import type { StorePlan } from "../responses/stored-state.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { OPEN_STATUSES, type StoredResponseRow } from "../storage/response-store.ts";
import type { EventRecorder } from "../stream-log/response-event-log.ts";
import { CLIENT_PROTOCOLS, type UpstreamCallOptions } from "../upstream/protocols.ts";

// `background: true` (issue 25): the response is written queued with the request it runs, the
// client gets it at once, and a runner on the work queue (BullMQ with Redis, in process without)
// runs it through the ordinary generation path, which writes the result back. The database row is
// the truth: a runner takes it with a compare-and-swap and a claim that lapses, so a runner that
// died (an instance crash) leaves it to the next start or to another instance, as tasks are.

const KIND = "response";
const NO_CACHE: CacheAnalysis = { mode: "none", warnings: [] };
const JSON_HEADERS = { "content-type": "application/json" };
/** Open background responses re-scheduled per start. */
const RESUME_BATCH = 1_000;

/** What a runner needs to replay the call: the expanded body and who asked. */
interface BackgroundRequest {
  readonly wire: Record<string, unknown>;
  readonly tokenId: number;
  readonly upstream: UpstreamCallOptions;
  readonly strict: boolean;
  /** What reading the request (its stored history) left out: said with the result. */
  readonly notes?: readonly Warning[];
}

/** How often a runner checks that its response is still its own to run (ms). */
const WATCH_MS = 1_000;

/** Calls running in this process, by response id: a cancel here stops the upstream call too. */
const running = new Map<string, AbortController>();

/** Stops the call of `id` if it runs here (a cancel on this instance or, over Redis, another). */
export function stopRunning(id: string): void {
  running.get(id)?.abort(new Error("the response was cancelled"));
}

/** The runner of this process: a streamed background response runs where its client waits. */
let localRunner: BackgroundResponses | undefined;

/**
 * Queues a background response and answers its queued Response object; with `stream: true`,
 * runs it here and answers the stream of its events (responses/response-events.ts).
 */
export async function submitBackground(
  services: GatewayServices,
  request: GenerationRequest,
  plan: StorePlan,
): Promise<TextReply | Response> {
  // What can be known now is refused now: an unknown model, or one this key may not use.
  const route = services.router.resolve(request.model);
  if (route === undefined) throw modelNotFound(request.model);
  const allowed = request.token.models;
  if (allowed !== undefined && !allowed.has(request.model) && !allowed.has(route.gatewayModel)) {
    throw permissionDenied(`this API key may not use model ${request.model}`);
  }
  const replay: BackgroundRequest = {
    wire: request.wire,
    tokenId: request.token.id,
    upstream: request.upstream,
    strict: request.strict === true,
    ...(request.notes === undefined ? {} : { notes: request.notes }),
  };
  await beginStored(services, plan, request.model, replay);
  const streamed = request.stream;
  // A streamed one runs here, so its events reach the client as they are made; the sweep runs
  // it elsewhere if this instance dies first.
  if (streamed && localRunner !== undefined) void localRunner.run(plan.responseId);
  else await services.queue.schedule(KIND, plan.responseId, services.now());
  request.log.info(
    { model: request.model, responseId: plan.responseId, stream: streamed },
    "background response queued",
  );
  if (streamed) {
    return followResponse(
      services,
      services.responseEvents,
      plan.responseId,
      plan.userId,
      -1,
      request.writesDirectly,
      request.notes,
    );
  }
  const body = JSON.stringify(openBody(plan, request.model, "queued"));
  return new TextReply(200, JSON_HEADERS, request.wrap ? wrapJsonText(body) : body);
}

/** Cancels an open background response; the Response object as it now stands. */
export async function cancelBackground(
  services: GatewayServices,
  row: StoredResponseRow,
): Promise<Record<string, unknown>> {
  const body = { ...row.body, status: "cancelled" };
  const done = await services.store.responses.transition(
    row.id,
    row.userId,
    OPEN_STATUSES,
    "cancelled",
    body,
    services.now(),
  );
  stopRunning(row.id);
  // The instance running it stops it too; streams following it end.
  services.responseEvents.signal(row.id, true);
  if (done) return body;
  // It finished (or was cancelled) meanwhile: what it is now.
  return (await services.store.responses.get(row.id, row.userId, services.now()))?.body ?? body;
}

/** The token a background call bills to, read again when it runs (it may be gone since). */
async function tokenOf(
  services: GatewayServices,
  tokenId: number,
): Promise<AuthenticatedToken | undefined> {
  const row = await services.store.getToken(tokenId);
  if (row === undefined || row.status !== "active") return undefined;
  if (row.expiresAt !== undefined && row.expiresAt <= services.now()) return undefined;
  const user = await services.store.getUser(row.userId);
  return {
    id: row.id,
    name: row.name,
    userId: row.userId,
    unlimited: row.unlimited,
    userUnlimited: user?.unlimited ?? false,
    models: row.models === undefined ? undefined : new Set(row.models),
    rateLimit: services.config.limits.rate_limit,
  };
}

export class BackgroundResponses {
  readonly #services: GatewayServices;
  readonly #runs = new JobRuns();

  constructor(services: GatewayServices) {
    this.#services = services;
  }

  /**
   * Registers the runner and schedules every open background response again; then looks for
   * ones whose runner died (claim lapsed) every half claim, at most every 30 s, so another
   * instance takes them over without a restart of the one that lost them.
   */
  async start(): Promise<void> {
    localRunner = this;
    this.#services.queue.process(KIND, (id) => this.run(id));
    const resumed = await this.sweep();
    if (resumed > 0)
      this.#services.log.info({ responses: resumed }, "background responses resumed");
    const claimMs = this.#services.config.responses.background_claim_ms;
    this.#runs.every(
      Math.max(250, Math.min(30_000, Math.floor(claimMs / 2))),
      () => this.sweep(),
      (error) => this.#services.log.warn({ err: error }, "background response sweep failed"),
    );
  }

  /** Schedules the open background responses: queued ones now, claimed ones when it lapses. */
  async sweep(): Promise<number> {
    const open = await this.#services.store.responses.openBackground(RESUME_BATCH);
    const now = this.#services.now();
    for (const { id, claimedUntil } of open) {
      await this.#services.queue.schedule(KIND, id, Math.max(now, claimedUntil + 1));
    }
    return open.length;
  }

  close(): Promise<void> {
    if (localRunner === this) localRunner = undefined;
    return this.#runs.close();
  }

  run(id: string): Promise<void> {
    return this.#runs.run(
      () => this.#run(id),
      (error) =>
        this.#services.log.error({ responseId: id, err: error }, "background response crashed"),
    );
  }

  async #run(id: string): Promise<void> {
    const services = this.#services;
    const now = services.now();
    const claimMs = services.config.responses.background_claim_ms;
    const until = now + claimMs;
    const claimed = await services.store.responses.claim(id, now, until, (row) => ({
      ...row.body,
      status: "in_progress",
    }));
    if (claimed === undefined) return;
    // Due again when the claim lapses: if this process dies mid-call, the next runner takes it.
    const watch = this.#watch(id, until);
    try {
      await services.queue.schedule(KIND, id, until + 1);
      await this.#runClaimed(id, claimed);
    } finally {
      watch.stop();
    }
  }

  /**
   * Watches a running response's row: every WATCH_MS it checks that the response is still in
   * progress under this runner's claim, and stops the call when it is not (cancelled on another
   * instance without Redis, or during a Redis outage; deleted; taken over). Every third of the
   * claim it extends it instead, so a call longer than the claim (a long stream) is never run a
   * second time beside itself. One check at a time: a renewal never races a check.
   */
  #watch(id: string, until: number): { stop(): void } {
    const services = this.#services;
    const claimMs = services.config.responses.background_claim_ms;
    const renewEvery = Math.max(100, Math.floor(claimMs / 3));
    let held = until;
    let renewedAt = services.now();
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    let failing = false;
    const check = async (): Promise<boolean> => {
      const now = services.now();
      if (now - renewedAt < renewEvery) return services.store.responses.holdsClaim(id, held);
      const next = now + claimMs;
      const renewed = await services.store.responses.renewClaim(id, held, next, now);
      if (renewed) {
        held = next;
        renewedAt = now;
      }
      return renewed;
    };
    const tick = () => {
      check().then(
        (holds) => {
          failing = false;
          if (!holds) stopRunning(id);
          else schedule();
        },
        (error: unknown) => {
          // Once per outage, not every second: the call goes on meanwhile.
          if (!failing)
            services.log.warn({ err: error, responseId: id }, "could not check a claim");
          failing = true;
          schedule();
        },
      );
    };
    const schedule = () => {
      if (stopped) return;
      timer = setTimeout(tick, Math.min(WATCH_MS, renewEvery));
      timer.unref();
    };
    schedule();
    return {
      stop: () => {
        stopped = true;
        clearTimeout(timer);
      },
    };
  }

  async #runClaimed(
    id: string,
    claimed: { row: StoredResponseRow; request: unknown },
  ): Promise<void> {
    const services = this.#services;
    const { row } = claimed;
    const replay = claimed.request as BackgroundRequest;
    const plan: StorePlan = {
      responseId: row.id,
      userId: row.userId,
      previousId: row.previousId,
      inputItems: [],
      createdAt: row.createdAt,
      background: true,
      echo: echoFields(replay.wire),
    };
    const model = typeof replay.wire["model"] === "string" ? replay.wire["model"] : "";
    const token = await tokenOf(services, replay.tokenId);
    if (token === undefined) {
      await services.store.responses.finish(
        id,
        {
          status: "failed",
          body: failedBody(plan, model, {
            code: "invalid_api_key",
            message: "the API key of this background response is no longer valid",
          }),
          outputItems: [],
        },
        services.now(),
      );
      if (replay.wire["stream"] === true) {
        const recorder = await services.responseEvents.record(id);
        await this.#endRecording(recorder, row.userId, new AbortController().signal);
      }
      return;
    }
    // Created with `stream: true`: its events are recorded for the clients that follow it.
    const recorder =
      replay.wire["stream"] === true ? await services.responseEvents.record(id) : undefined;
    const requestId = newRequestId();
    const controller = new AbortController();
    running.set(id, controller);
    try {
      await this.#call(id, requestId, token, replay, plan, controller.signal, recorder);
    } catch (error) {
      // A refusal (no such model, no quota) is kept with its own code; anything else is a
      // server error. Failed either way, not retried.
      const refused = error instanceof GatewayError;
      if (refused) {
        services.log.info(
          { responseId: id, status: error.status, error: error.message },
          "background response refused",
        );
      } else services.log.error({ responseId: id, err: error }, "background response failed");
      await services.store.responses.finish(
        id,
        {
          status: "failed",
          body: failedBody(
            plan,
            model,
            refused ? error : { code: "server_error", message: String(error) },
          ),
          outputItems: [],
        },
        services.now(),
      );
    } finally {
      running.delete(id);
      if (recorder !== undefined) {
        await this.#endRecording(recorder, row.userId, controller.signal);
      }
    }
  }

  /**
   * Ends the recording of a run: a response that ended without its terminal event in the stream
   * (refused, failed before streaming) gets the one its stored object says; a cancelled one none.
   */
  async #endRecording(recorder: EventRecorder, userId: string, signal: AbortSignal): Promise<void> {
    const services = this.#services;
    try {
      if (!recorder.sawTerminal && !signal.aborted) {
        const row = await services.store.responses.get(recorder.id, userId, services.now());
        const said = row === undefined ? undefined : terminalStreamEvent(row.body, recorder.next());
        if (said !== undefined) recorder.push(said);
      }
    } finally {
      await recorder.end();
    }
  }

  async #call(
    id: string,
    requestId: string,
    token: AuthenticatedToken,
    replay: BackgroundRequest,
    plan: StorePlan,
    signal: AbortSignal,
    recorder: EventRecorder | undefined,
  ): Promise<void> {
    const services = this.#services;
    const canonical = CLIENT_PROTOCOLS.responses.codec.request.parse(replay.wire);
    const stream = recorder !== undefined;
    const request: GenerationRequest = {
      endpoint: ENDPOINTS.responses,
      requestId,
      token,
      log: requestLog(services.log, {
        requestId,
        endpoint: "responses.background",
        responseId: id,
        token: token.name,
      }),
      wire: replay.wire,
      canonical: { ...canonical, stream },
      cache: NO_CACHE,
      model: canonical.model,
      stream,
      jsonArrayStream: false,
      wrap: false,
      upstream: replay.upstream,
      writesDirectly: false,
      signal,
      strict: replay.strict,
      stored: plan,
      ...(replay.notes === undefined ? {} : { notes: replay.notes }),
    };
    // The generation path records the outcome (completed, or failed with its error).
    const reply = await runGeneration(services, request);
    // (Not `instanceof Response`: the HTTP adapter replaces the global Response class.)
    if (recorder === undefined || reply instanceof TextReply || reply.body === null) return;
    if (reply.status !== 200) {
      await reply.body.cancel();
      return;
    }
    // Read to its end whoever follows it (a client that left stops nothing); a cancel stops the
    // reading at once (the upstream is let go as when a client leaves), and records nothing more.
    // What it dropped is said at the end of every stream that follows it.
    const said = reply.headers.get(WARNINGS_HEADER);
    if (said !== null) recorder.warn(said);
    const comment = `${WARNINGS_HEADER}: `;
    const onComment = (text: string) => {
      if (text.startsWith(comment)) recorder.warn(text.slice(comment.length));
    };
    const reader = reply.body.pipeThrough(decodeSse({ onComment })).getReader();
    const stop = () => void reader.cancel().catch(() => undefined);
    signal.addEventListener("abort", stop, { once: true });
    try {
      for (;;) {
        const next = await reader.read();
        if (next.done || signal.aborted) break;
        let parsed: unknown;
        try {
          // Kept as a client gets it: a channel key an upstream echoed is redacted here too.
          const data = next.value.data;
          parsed = JSON.parse(services.redactor.active ? services.redactor.redact(data) : data);
        } catch {
          services.log.warn({ responseId: id }, "background response stream frame is not JSON");
          continue;
        }
        if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
          recorder.push(parsed as Record<string, unknown>);
        }
      }
    } finally {
      signal.removeEventListener("abort", stop);
      if (signal.aborted) stop();
    }
  }
}
