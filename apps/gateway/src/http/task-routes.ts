import type { Warning } from "@interlingua/core-types";
import { invalidRequest, notFound } from "@interlingua/errors";
import {
  estimatedTimeSeconds,
  generatedSeconds,
  type ImageRequest,
  normalizeLanguage,
  parseImageRequest,
  parseRemixRequest,
  parseVideoRequest,
  renderSubmission,
  renderTask,
} from "@interlingua/tasks";
import type { Hono } from "hono";
import type { AuthenticatedToken } from "../auth/token-store.ts";
import type { AppEnv } from "../contract/app-env.ts";
import {
  ENVELOPE_HEADER,
  isStrict,
  type JsonObject,
  readJsonObject,
  shouldWrap,
  strictRefusal,
  warningsHeaders,
} from "../contract/client-contract.ts";
import { parsePrefer } from "../contract/prefer-header.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { upstreamHandle } from "../storage/task-record.ts";
import type { TaskRow } from "../storage/task-store.ts";
import { imagesResponse, taskFailure, waitForTask } from "../tasks/images-response.ts";
import { JOBS } from "../tasks/jobs/jobs.ts";
import { type Submission, submitTask } from "../tasks/submit-task.ts";
import { isTaskId } from "../tasks/task-id.ts";
import { routeTaskModel, type TaskRoute } from "../tasks/task-route.ts";
import { taskSnapshot } from "../tasks/task-snapshot.ts";
import {
  imageWarnings,
  languageWarnings,
  remixWarnings,
  videoWarnings,
} from "../tasks/task-warnings.ts";
import { serviceHosts } from "../webhooks/service-hosts.ts";
import { requireKey } from "./require-key.ts";
import { type Ctx, standardReply } from "./standard-route.ts";

type Json = JsonObject;

/** `Idempotency-Key`: a caller's retry of a submit returns the first task (DESIGN.md §4). */
const IDEMPOTENCY_HEADER = "idempotency-key";
const MAX_IDEMPOTENCY_KEY = 255;
const REPLAYED_HEADER = "idempotent-replayed";

/**
 * The asynchronous generation endpoints (docs/api-reference.md: video, remix, images, tasks): submits answer
 * the acknowledgement `{code: 200, data: [{status: "submitted", task_id}]}`, reads the Task.
 * Errors take the standard envelope; `envelope: bare` (or `x-interlingua-envelope: bare`)
 * answers the `data` alone. What a request asks that will not be done is named in
 * `x-interlingua-warnings` (tasks/task-warnings.ts), a 400 under `x-interlingua-strict: true`.
 */
export function mountTaskRoutes(app: Hono<AppEnv>, services: GatewayServices): void {
  const reply = standardReply(services);
  const keyed = requireKey(services);

  const acknowledge = (c: Ctx, task: TaskRow): Response => reply(c, renderSubmission(task.id).data);

  /** What is accepted but not carried out: named in the answer's header, or refused if strict. */
  const warn = (c: Ctx, warnings: readonly Warning[]): void => {
    const strict = isStrict(c.req.raw.headers) ? strictRefusal(warnings) : undefined;
    if (strict !== undefined) throw strict;
    for (const [name, value] of Object.entries(warningsHeaders(warnings))) c.header(name, value);
  };

  const submit = async (
    c: Ctx,
    s: Omit<Submission, "requestId" | "log" | "serviceHosts" | "idempotencyKey">,
    warnings: readonly Warning[],
  ) => acknowledge(c, await submitted(c, s, warnings));

  const submitted = async (
    c: Ctx,
    s: Omit<Submission, "requestId" | "log" | "serviceHosts" | "idempotencyKey">,
    warnings: readonly Warning[],
  ): Promise<TaskRow> => {
    // Before anything is held: strict refuses a field that would be dropped.
    warn(c, [...warnings, ...languageWarnings(s.language)]);
    const requestId = c.get("requestId");
    const outcome = await submitTask(services, {
      ...s,
      requestId,
      log: services.log.child({ requestId, endpoint: s.endpoint, token: s.token.name }),
      idempotencyKey: idempotencyKey(c),
      serviceHosts: serviceHosts(services.config),
    });
    // A repeated Idempotency-Key: the first task's acknowledgement, marked as a replay.
    if (!outcome.created) c.header(REPLAYED_HEADER, "true");
    return outcome.task;
  };

  app.post("/v1/videos/generations", keyed, async (c) => {
    const token = c.get("token");
    const body = await jsonBody(c, services);
    const request = parseVideoRequest(body);
    const route = routeTaskModel(services, token, request.model, "video", "videos");
    return submit(
      c,
      {
        token,
        kind: "video",
        model: request.model,
        endpoint: "videos",
        route,
        input: { ...request },
        units: {
          seconds: generatedSeconds(request),
          outputs: request.variant === "official" ? request.sampleCount : 1,
        },
        estimatedTime: estimatedTimeSeconds(request),
        webhook: request.webhook,
        language: body["language"],
      },
      videoWarnings(request),
    );
  });

  app.post("/v1/videos/:task_id/remix", keyed, async (c) => {
    const token = c.get("token");
    const source = await ownTask(services, token, c.req.param("task_id") ?? "");
    if (source === undefined || source.kind !== "video") {
      throw notFound(`no video task ${c.req.param("task_id")}`, { param: "task_id" });
    }
    const body = await jsonBody(c, services);
    const request = parseRemixRequest(body, { model: source.model, status: source.status });
    const video = upstreamHandle(source).videos?.[0];
    if (video === undefined) {
      throw invalidRequest(`task ${source.id} has no video to continue`, "task_id");
    }
    const route = routeTaskModel(services, token, request.model, "video", "remix", source.channel);
    return submit(
      c,
      {
        token,
        kind: "video",
        model: request.model,
        endpoint: "remix",
        route,
        input: { ...request, sourceVideo: video },
        units: { seconds: generatedSeconds(request), outputs: 1 },
        estimatedTime: estimatedTimeSeconds(request),
        webhook: request.webhook,
        language: body["language"],
        sourceTaskId: source.id,
      },
      remixWarnings(request),
    );
  });

  app.post("/v1/images/generations", keyed, async (c) => {
    const token = c.get("token");
    const body = await jsonBody(c, services);
    const request = parseImageRequest(body);
    const route = routeTaskModel(services, token, request.model, "image", "images");
    checkImageRequest(route, request);
    // OpenAI's clients read a synchronous ImagesResponse: under the bare envelope (unless they
    // prefer respond-async) or when they say how long they wait (RFC 7240 `Prefer: wait=N`).
    const prefer = parsePrefer(c.req.header("prefer"));
    const bare = !shouldWrap(true, services.config.envelope, c.req.header(ENVELOPE_HEADER) ?? null);
    const sync = prefer.wait !== undefined || (bare && !prefer.respondAsync);
    const images = request.n ?? 1;
    const task = await submitted(
      c,
      {
        token,
        kind: "image",
        model: request.model,
        endpoint: "images",
        route,
        input: { ...request },
        units: { requests: images, outputs: images },
        estimatedTime: estimatedTimeSeconds(request),
        webhook: request.webhook,
        language: body["language"],
      },
      imageWarnings(route, request),
    );
    if (!sync) return acknowledge(c, task);
    const limits = services.config.images;
    const wait = Math.min(prefer.wait ?? limits.wait_seconds, limits.max_wait_seconds);
    if (prefer.wait !== undefined) c.header("preference-applied", `wait=${wait}`);
    const now = await waitForTask(services, task.id, wait * 1000, c.req.raw.signal);
    if (now?.status === "completed") {
      return reply(c, await imagesResponse(services, now, request.responseFormat ?? "url"));
    }
    if (now?.status === "failed" || now?.status === "cancelled") {
      throw taskFailure(now);
    }
    // Not done in time: the task, to poll like any other.
    const snapshot = renderTask(taskSnapshot(now ?? task));
    c.status(202);
    return c.json(bare ? snapshot : { code: 202, data: snapshot });
  });

  const read = async (c: Ctx) => {
    const token = c.get("token");
    const id = c.req.param("task_id") ?? "";
    const task = await ownTask(services, token, id);
    if (task === undefined) throw notFound(`no task ${id}`, { param: "task_id" });
    // The API reference: an unsupported language returns the original message; the header says so.
    warn(c, languageWarnings(c.req.query("language")));
    const language = normalizeLanguage(c.req.query("language"));
    return reply(c, renderTask(taskSnapshot(task), language === undefined ? {} : { language }));
  };
  app.get("/v1/tasks/:task_id", keyed, read);
  app.get("/v1/images/generations/:task_id", keyed, read);
}

/** What the chosen upstream cannot do (its job's `refuseImage`), refused now, not later. */
function checkImageRequest(route: TaskRoute, request: ImageRequest): void {
  const refusal = JOBS[route.job].refuseImage?.(request);
  if (refusal !== undefined) throw refusal;
}

/** The caller's task: 400 for a malformed id, undefined when unknown or someone else's (404). */
async function ownTask(
  services: GatewayServices,
  token: AuthenticatedToken,
  id: string,
): Promise<TaskRow | undefined> {
  if (!isTaskId(id)) throw invalidRequest(`invalid task id: ${id.slice(0, 64)}`, "task_id");
  const task = await services.store.tasks.get(id);
  // Another user's task answers exactly like a missing one: ids are not an oracle.
  return task !== undefined && task.userId === token.userId ? task : undefined;
}

const jsonBody = (c: Ctx, services: GatewayServices): Promise<Json> =>
  readJsonObject(c.req.raw, services.config.limits.max_body_bytes);

function idempotencyKey(c: Ctx): string | undefined {
  const key = c.req.header(IDEMPOTENCY_HEADER)?.trim();
  if (key === undefined || key === "") return undefined;
  if (key.length > MAX_IDEMPOTENCY_KEY) {
    throw invalidRequest(`Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY} characters`);
  }
  return key;
}
