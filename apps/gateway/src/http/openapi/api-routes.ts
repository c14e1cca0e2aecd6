import { speechRequestSchema, transcriptionVerboseSchema } from "@interlingua/fmt-chat/media";
import { chatRequestSchema, chatResponseSchema } from "@interlingua/fmt-chat/schemas";
import { messagesRequestSchema, messagesResponseSchema } from "@interlingua/fmt-messages/schemas";
import { nativeRequestSchema, nativeResponseSchema } from "@interlingua/fmt-native/schemas";
import {
  interlinguaResponsesRequestSchema,
  interlinguaResponsesResultSchema,
} from "@interlingua/fmt-responses/schemas";
import { taskResourceSchema } from "@interlingua/tasks/schemas";
import { z } from "zod";
import {
  createTokenSchema,
  logQuerySchema,
  pageQuerySchema,
  updateTokenSchema,
} from "../management-schemas.ts";
import {
  deletedResponseSchema,
  healthSchema,
  imageRequestSchema,
  imagesResponseSchema,
  inputItemListSchema,
  managementEnvelope,
  messagesErrorSchema,
  modelListSchema,
  modelSchema,
  nativeErrorSchema,
  readySchema,
  remixRequestSchema,
  standardErrorSchema,
  storedResponseSchema,
  submissionSchema,
  tokenBalanceSchema,
  transcriptionFormSchema,
  uploadErrorSchema,
  uploadFormSchema,
  uploadRecordSchema,
  userBalanceSchema,
  videoRequestSchema,
  webhookSecretSchema,
  wrapped,
} from "./api-schemas.ts";

/** The count endpoints' replies (Anthropic's, OpenAI's and Gemini's own shapes). */
const messagesCountSchema = z.object({ input_tokens: z.int().min(0) });
const responsesCountSchema = z.object({
  object: z.literal("response.input_tokens"),
  input_tokens: z.int().min(0),
});
const nativeCountSchema = z.looseObject({ totalTokens: z.int().min(0) });

// Every route the gateway serves, documented: the OpenAPI document is built from this table,
// and a test checks it against the routes Hono registers (both directions).

export type Method = "get" | "post" | "put" | "delete";
export type Auth = "bearer" | "messages" | "native" | "any" | "none";

export interface ApiRoute {
  readonly method: Method;
  /** Hono's pattern (`:param`); written `{param}` in the document. */
  readonly path: string;
  readonly tag: string;
  readonly summary: string;
  readonly auth: Auth;
  /** JSON body, or a multipart form (`multipart: true`). */
  readonly body?: z.core.$ZodType;
  readonly multipart?: boolean;
  readonly query?: z.ZodObject;
  /** The success body (200); `binary` for audio or files, `text` for metrics. */
  readonly response?: z.core.$ZodType | "binary" | "text" | "html";
  /** Error body family. */
  readonly errors?: z.core.$ZodType;
  /** A stream may be asked for (SSE). */
  readonly sse?: boolean;
  readonly description?: string;
}

const management = (data: z.core.$ZodType) => managementEnvelope(data);
const anyData = z.unknown();
const managementError = managementEnvelope(z.null());

const GENERATION: ApiRoute[] = [
  ...["/v1/chat/completions", "/api/v1/chat/completions"].map(
    (path): ApiRoute => ({
      method: "post",
      path,
      tag: "Generation",
      summary: "Chat completions (cache_control boundaries supported)",
      auth: "bearer",
      body: chatRequestSchema,
      response: wrapped(chatResponseSchema),
      errors: standardErrorSchema,
      sse: true,
    }),
  ),
  {
    method: "post",
    path: "/v1/responses",
    tag: "Generation",
    summary: "Responses format",
    description:
      "`store` (default true) keeps the response for `previous_response_id`, `item_reference` input items and the `/v1/responses/{id}` routes; `background: true` answers the queued response at once, or with `stream: true` streams its events as it runs (resumable with `GET /v1/responses/{id}?stream=true&starting_after=N`).",
    auth: "bearer",
    body: interlinguaResponsesRequestSchema,
    response: wrapped(interlinguaResponsesResultSchema),
    errors: standardErrorSchema,
    sse: true,
  },
  {
    method: "get",
    path: "/v1/responses/:id",
    tag: "Generation",
    summary: "A stored response (store: true), the caller's own",
    description:
      "OpenAI's Response object as last known: `queued` or `in_progress` while a background response runs. With `stream=true`, a background response created with `stream: true` streams its events (SSE) after `starting_after` (a `sequence_number`; from the first without it), then the new ones until it ends. Another user's id, a deleted or an expired one is a 404.",
    auth: "bearer",
    query: z.object({
      stream: z.enum(["true", "false"]).optional().describe("Default false"),
      starting_after: z
        .int()
        .min(0)
        .optional()
        .describe("With stream=true: resume after this event"),
    }),
    response: z.union([wrapped(storedResponseSchema), storedResponseSchema]),
    errors: standardErrorSchema,
    sse: true,
  },
  {
    method: "delete",
    path: "/v1/responses/:id",
    tag: "Generation",
    summary: "Delete a stored response and its items",
    auth: "bearer",
    response: z.union([wrapped(deletedResponseSchema), deletedResponseSchema]),
    errors: standardErrorSchema,
  },
  {
    method: "get",
    path: "/v1/responses/:id/input_items",
    tag: "Generation",
    summary: "The input items of a stored response (the whole conversation it answered)",
    auth: "bearer",
    query: z.object({
      after: z.string().optional(),
      limit: z.int().min(1).max(100).optional().describe("Default 20"),
      order: z.enum(["asc", "desc"]).optional().describe("Default desc"),
    }),
    response: z.union([wrapped(inputItemListSchema), inputItemListSchema]),
    errors: standardErrorSchema,
  },
  {
    method: "post",
    path: "/v1/responses/:id/cancel",
    tag: "Generation",
    summary: "Cancel a background response",
    auth: "bearer",
    response: z.union([wrapped(storedResponseSchema), storedResponseSchema]),
    errors: standardErrorSchema,
  },
  {
    method: "post",
    path: "/v1/messages",
    tag: "Generation",
    summary: "Messages format (unwrapped)",
    auth: "messages",
    body: messagesRequestSchema,
    response: messagesResponseSchema,
    errors: messagesErrorSchema,
    sse: true,
  },
  {
    method: "post",
    path: "/v1/messages/count_tokens",
    tag: "Generation",
    summary: "Count a messages request's input tokens (unwrapped, free)",
    description:
      "A messages request without `max_tokens`. Counted by the model's channel when its provider counts (Anthropic), else estimated: `x-interlingua-warnings: input_tokens=estimated`.",
    auth: "messages",
    body: z.looseObject({ model: z.string(), messages: z.array(z.unknown()) }),
    response: messagesCountSchema,
    errors: messagesErrorSchema,
  },
  {
    method: "post",
    path: "/v1/responses/input_tokens",
    tag: "Generation",
    summary: "Count a responses request's input tokens (free)",
    description:
      "OpenAI's input token count. Counted by the model's channel when its provider counts (OpenAI's Responses API), else estimated: `x-interlingua-warnings: input_tokens=estimated`.",
    auth: "bearer",
    body: z.looseObject({ model: z.string().optional(), input: z.unknown().optional() }),
    response: z.union([wrapped(responsesCountSchema), responsesCountSchema]),
    errors: standardErrorSchema,
  },
  ...["/v1beta/models/:target", "/v1/models/:target"].map(
    (path): ApiRoute => ({
      method: "post",
      path,
      tag: "Generation",
      summary:
        "Native generate-content: `{model}:generateContent` or `{model}:streamGenerateContent`; `{model}:countTokens` counts",
      description:
        "`target` is `{model}:{method}`; `?alt=sse` streams SSE, without it a streamed JSON array. `countTokens` takes `{contents}` or `{generateContentRequest}` and answers `{totalTokens}` (free; estimated where the provider does not count: `x-interlingua-warnings: input_tokens=estimated`).",
      auth: "native",
      body: nativeRequestSchema,
      response: z.union([wrapped(nativeResponseSchema), wrapped(nativeCountSchema)]),
      errors: nativeErrorSchema,
      sse: true,
    }),
  ),
  {
    method: "get",
    path: "/v1/models",
    tag: "Generation",
    summary: "Models this API key may use",
    description:
      "In OpenAI's list shape. Takes the key as any generation endpoint does (Bearer, `x-api-key`, `x-goog-api-key`, `x-vendor-api-key` or `?key=`), for each vendor's SDK lists models with its own.",
    auth: "any",
    response: modelListSchema,
    errors: standardErrorSchema,
  },
  {
    method: "get",
    path: "/v1/models/:model",
    tag: "Generation",
    summary: "One model this API key may use",
    description: "One entry of `GET /v1/models`; 404 for a model the key may not use.",
    auth: "any",
    response: modelSchema,
    errors: standardErrorSchema,
  },
];

const TASKS: ApiRoute[] = [
  {
    method: "post",
    path: "/v1/videos/generations",
    tag: "Tasks",
    summary: "Submit a video generation (standard or official variant, by model)",
    auth: "bearer",
    body: videoRequestSchema,
    response: submissionSchema,
    errors: standardErrorSchema,
  },
  {
    method: "post",
    path: "/v1/videos/:task_id/remix",
    tag: "Tasks",
    summary: "Continue a completed video",
    auth: "bearer",
    body: remixRequestSchema,
    response: submissionSchema,
    errors: standardErrorSchema,
  },
  {
    method: "post",
    path: "/v1/images/generations",
    tag: "Tasks",
    summary: "Submit an image generation",
    description:
      "The spec envelope answers the asynchronous acknowledgement. The bare envelope, or `Prefer: wait=N` (seconds, capped by `images.max_wait_seconds`), waits for the task and answers OpenAI's ImagesResponse; a task not done in time is a 202 with the task. `Prefer: respond-async` asks for the acknowledgement under the bare envelope too.",
    auth: "bearer",
    body: imageRequestSchema,
    response: z.union([submissionSchema, imagesResponseSchema, wrapped(imagesResponseSchema)]),
    errors: standardErrorSchema,
  },
  ...["/v1/tasks/:task_id", "/v1/images/generations/:task_id"].map(
    (path): ApiRoute => ({
      method: "get",
      path,
      tag: "Tasks",
      summary: "Read a task",
      auth: "bearer",
      query: z.object({ language: z.string().optional() }),
      response: wrapped(taskResourceSchema),
      errors: standardErrorSchema,
    }),
  ),
];

const MEDIA: ApiRoute[] = [
  {
    method: "post",
    path: "/v1/uploads/images",
    tag: "Files",
    summary: "Upload an image; its URL is valid 72 hours",
    auth: "bearer",
    multipart: true,
    body: uploadFormSchema,
    response: uploadRecordSchema,
    errors: uploadErrorSchema,
  },
  {
    method: "get",
    path: "/files/:key",
    tag: "Files",
    summary: "A stored file (upload or generated result); the URL is the capability (also HEAD)",
    auth: "none",
    response: "binary",
    errors: standardErrorSchema,
  },
  {
    method: "post",
    path: "/v1/audio/speech",
    tag: "Audio",
    summary: "Text to speech (binary audio stream)",
    auth: "bearer",
    body: speechRequestSchema,
    response: "binary",
    errors: standardErrorSchema,
  },
  {
    method: "post",
    path: "/v1/audio/transcriptions",
    tag: "Audio",
    summary: "Transcribe audio",
    description: "`json` answers `{text}`; `text`, `srt` and `vtt` answer plain text.",
    auth: "bearer",
    multipart: true,
    body: transcriptionFormSchema,
    response: z.union([z.object({ text: z.string() }), transcriptionVerboseSchema]),
    errors: standardErrorSchema,
  },
];

const BALANCE: ApiRoute[] = [
  ...["/v1/balance", "/balance"].map(
    (path): ApiRoute => ({
      method: "get",
      path,
      tag: "Balance",
      summary: "This API key's balance",
      auth: "bearer",
      response: tokenBalanceSchema,
      errors: standardErrorSchema,
    }),
  ),
  ...["/v1/user/balance", "/user/balance"].map(
    (path): ApiRoute => ({
      method: "get",
      path,
      tag: "Balance",
      summary: "The balance of the key's user account",
      auth: "bearer",
      response: userBalanceSchema,
      errors: standardErrorSchema,
    }),
  ),
];

const tokenRoutes = (path: string): ApiRoute[] => [
  {
    method: "get",
    path,
    tag: "Management",
    summary: "My tokens (paged)",
    auth: "bearer",
    query: pageQuerySchema,
    response: management(anyData),
    errors: managementError,
  },
  {
    method: "post",
    path,
    tag: "Management",
    summary: "Create a token (its key is shown once)",
    auth: "bearer",
    body: createTokenSchema,
    response: management(anyData),
    errors: managementError,
  },
  {
    method: "put",
    path,
    tag: "Management",
    summary: "Update a token named by `id` in the body",
    auth: "bearer",
    body: updateTokenSchema,
    response: management(anyData),
    errors: managementError,
  },
];

const MANAGEMENT: ApiRoute[] = [
  {
    method: "get",
    path: "/api/user/self",
    tag: "Management",
    summary: "My user account",
    auth: "bearer",
    response: management(anyData),
    errors: managementError,
  },
  {
    method: "get",
    path: "/api/log/self",
    tag: "Management",
    summary: "My usage logs (paged, filtered)",
    auth: "bearer",
    query: logQuerySchema,
    response: management(anyData),
    errors: managementError,
  },
  {
    method: "get",
    path: "/api/log/self/stat",
    tag: "Management",
    summary: "Totals of my usage logs",
    auth: "bearer",
    query: logQuerySchema,
    response: management(anyData),
    errors: managementError,
  },
  {
    method: "get",
    path: "/api/task/self",
    tag: "Management",
    summary: "My image and video tasks, newest first, each with its webhook delivery (paged)",
    auth: "bearer",
    query: pageQuerySchema,
    response: management(anyData),
    errors: managementError,
  },
  {
    method: "get",
    path: "/api/response/self",
    tag: "Management",
    summary: "My stored responses (`store: true`), newest first (paged)",
    auth: "bearer",
    query: pageQuerySchema,
    response: management(anyData),
    errors: managementError,
  },
  {
    method: "get",
    path: "/api/admin/channels",
    tag: "Management",
    summary: "Admin keys only: every channel's breaker state, cool-downs, error rate and latency",
    auth: "bearer",
    response: management(anyData),
    errors: managementError,
  },
  {
    method: "get",
    path: "/api/admin/users",
    tag: "Management",
    summary: "Admin keys only: every configured user's quota and balance",
    auth: "bearer",
    response: management(anyData),
    errors: managementError,
  },
  {
    method: "get",
    path: "/api/log/self/daily",
    tag: "Management",
    summary: "My usage logs summed per UTC day and model",
    auth: "bearer",
    query: logQuerySchema,
    response: management(anyData),
    errors: managementError,
  },
  ...tokenRoutes("/api/token"),
  ...tokenRoutes("/api/token/"),
  {
    method: "get",
    path: "/api/token/:id",
    tag: "Management",
    summary: "One of my tokens",
    auth: "bearer",
    response: management(anyData),
    errors: managementError,
  },
  {
    method: "put",
    path: "/api/token/:id",
    tag: "Management",
    summary: "Update one of my tokens",
    auth: "bearer",
    body: updateTokenSchema,
    response: management(anyData),
    errors: managementError,
  },
  {
    method: "delete",
    path: "/api/token/:id",
    tag: "Management",
    summary: "Delete one of my tokens",
    auth: "bearer",
    response: management(z.null()),
    errors: managementError,
  },
  {
    method: "get",
    path: "/api/webhook/secret",
    tag: "Management",
    summary: "My webhook signing secret (Standard Webhooks, created on first read)",
    auth: "bearer",
    response: webhookSecretSchema,
    errors: managementError,
  },
  {
    method: "post",
    path: "/api/webhook/secret/rotate",
    tag: "Management",
    summary: "Rotate my webhook signing secret",
    auth: "bearer",
    response: webhookSecretSchema,
    errors: managementError,
  },
];

const OPERATIONS: ApiRoute[] = [
  {
    method: "get",
    path: "/healthz",
    tag: "Operations",
    summary: "Liveness: the process serves",
    auth: "none",
    response: healthSchema,
  },
  {
    method: "get",
    path: "/readyz",
    tag: "Operations",
    summary: "Readiness: database, migrations, Redis; 503 naming what is not ready",
    auth: "none",
    response: readySchema,
  },
  {
    method: "get",
    path: "/openapi.json",
    tag: "Operations",
    summary: "This document",
    auth: "none",
    response: z.record(z.string(), z.unknown()),
  },
  {
    method: "get",
    path: "/dashboard",
    tag: "Operations",
    summary: "Redirects to /dashboard/",
    auth: "none",
    response: "html",
  },
  {
    method: "get",
    path: "/dashboard/*",
    tag: "Operations",
    summary: "The browser dashboard (built by `pnpm build`); it calls only this API",
    auth: "none",
    response: "html",
  },
  {
    method: "get",
    path: "/docs",
    tag: "Operations",
    summary: "A reference page rendering this document",
    auth: "none",
    response: "html",
  },
];

/** The metrics route, documented only where it is served (`metrics.enabled`, at `metrics.path`). */
export const metricsRoute = (path: string): ApiRoute => ({
  method: "get",
  path,
  tag: "Operations",
  summary: "Prometheus metrics (text exposition format)",
  auth: "none",
  response: "text",
});

export const API_ROUTES: readonly ApiRoute[] = [
  ...GENERATION,
  ...TASKS,
  ...MEDIA,
  ...BALANCE,
  ...MANAGEMENT,
  ...OPERATIONS,
];
