import { upstreamProtocolSchema } from "@interlingua/core-types";
import { SPEECH_FORMATS } from "@interlingua/fmt-chat/media";
import { z } from "zod";

// The config file of DESIGN.md §4. Objects are strict so a misspelt key is an error naming its
// path instead of a silently ignored setting.

const nonEmpty = z.string().min(1, "must not be empty");
const credits = z.number().int().nonnegative();
const price = z.number().nonnegative();

const urlWithSchemes = (schemes: readonly string[]) =>
  nonEmpty.refine(
    (value) => schemes.some((scheme) => value.startsWith(scheme)),
    `must start with ${schemes.join(" or ")}`,
  );

export const listenSchema = z.strictObject({
  host: nonEmpty.default("127.0.0.1"),
  port: z.number().int().min(0).max(65535).default(8080),
});

export const billingSchema = z.strictObject({
  unit: z.enum(["USD", "Credits"]).default("USD"),
  credits_per_usd: z.number().positive().default(500000),
  /**
   * Output tokens held for a call that names no max tokens, for a model whose maximum output is
   * not known (`pricing.<model>.max_output_tokens` and the defaults set it for every docs/api-reference.md model).
   */
  default_output_reserve: z.number().int().positive().default(4096),
  /** Usage rows and settlements are written in batches of at most this many, or this often. */
  flush_max_rows: z.number().int().positive().default(200),
  flush_interval_ms: z.number().int().positive().default(50),
  /**
   * Quota lease timing (ms), for tests and operators who want a dead instance's leases back
   * sooner: heartbeat interval, age after which a lease is a dead instance's, reclaim interval.
   */
  leases: z
    .strictObject({
      heartbeat_ms: z.number().int().positive().optional(),
      stale_ms: z.number().int().positive().optional(),
      reclaim_every_ms: z.number().int().positive().optional(),
    })
    .optional(),
});

/**
 * SIGTERM: for unready_ms keep serving while /readyz answers `draining` (so load balancers that
 * poll it stop sending here), then stop accepting, let open streams finish for at most drain_ms,
 * flush usage, exit.
 */
export const shutdownSchema = z.strictObject({
  drain_ms: z.number().int().min(0).default(10_000),
  unready_ms: z.number().int().min(0).default(0),
});

/**
 * Task steps: how long a step owns its task (renewed while it runs; a dead instance's tasks are
 * taken over after it) and how often due tasks whose job was lost are looked for.
 */
export const tasksSchema = z.strictObject({
  step_lease_ms: z.number().int().min(100).default(20_000),
  sweep_interval_ms: z.number().int().min(100).default(10_000),
});

/** Sliding one-minute windows; absent = no limit. */
export const rateLimitSchema = z.strictObject({
  rpm: z.number().int().positive().optional(),
  tpm: z.number().int().positive().optional(),
});

export const webhooksSchema = z.strictObject({
  allow_private_targets: z.boolean().default(false),
  /** How often owed pushes whose job was lost (Redis restarted, an instance died) are looked for. */
  sweep_interval_ms: z.number().int().min(100).default(30_000),
});

/**
 * S3-compatible object storage for the files served from `public_url` (uploads, generated
 * images and videos), so several instances serve the same files. Credentials: these two keys,
 * or else the AWS SDK's usual sources (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profiles...).
 */
export const s3FilesSchema = z
  .strictObject({
    bucket: nonEmpty,
    /** For S3-compatible services (MinIO, R2, ...); absent = AWS S3 itself. */
    endpoint: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
    region: nonEmpty,
    /** Prepended to every key (a `/` is added when missing), to share a bucket. */
    prefix: nonEmpty.optional(),
    /** `bucket` in the path instead of the host name (MinIO and most self-hosted servers). */
    force_path_style: z.boolean().default(false),
    access_key_id: nonEmpty.optional(),
    secret_access_key: nonEmpty.optional(),
  })
  .refine((s3) => (s3.access_key_id === undefined) === (s3.secret_access_key === undefined), {
    message: "give both access_key_id and secret_access_key, or neither",
    path: ["secret_access_key"],
  });

/** Where served files' bytes live: `files_dir` unless `s3` is set. */
export const filesSchema = z.strictObject({
  s3: s3FilesSchema.optional(),
});

export const limitsSchema = z.strictObject({
  /** Request bodies above this many bytes are refused with 413 while they are being read. */
  max_body_bytes: z
    .number()
    .int()
    .positive()
    .default(32 * 1024 * 1024),
  /** Applied to every token that sets no `rate_limit` of its own. */
  rate_limit: rateLimitSchema.prefault({}),
  /**
   * A request (headers and body) not received in full within this many ms is answered 408 and
   * its connection closed: a slow body cannot hold a connection and its buffers for minutes.
   */
  body_timeout_ms: z.number().int().positive().default(30_000),
  /**
   * Bytes of request bodies being received at once, over all requests (each counted by its
   * declared length, or `max_body_bytes` when chunked); past it, 503 with Retry-After.
   */
  max_inflight_body_bytes: z
    .number()
    .int()
    .positive()
    .default(256 * 1024 * 1024),
});

export const userSchema = z.strictObject({
  id: nonEmpty,
  quota: credits.default(0),
  unlimited: z.boolean().default(false),
});

export const tokenSchema = z
  .strictObject({
    key: nonEmpty,
    user: nonEmpty,
    /** A label for logs; the key itself is never logged. */
    name: nonEmpty.optional(),
    quota: credits.optional(),
    unlimited: z.boolean().default(false),
    /** Allow-list of gateway model ids; absent means every configured model. */
    models: z.array(nonEmpty).optional(),
    /** ISO 8601 time after which the key is refused. */
    expires_at: z.iso.datetime({ offset: true }).optional(),
    rate_limit: rateLimitSchema.optional(),
  })
  .refine((token) => token.unlimited || token.quota !== undefined, {
    message: "give either quota or unlimited: true",
    path: ["quota"],
  });

/** A list of gateway ids served under the same id, or a map gateway id -> upstream id. */
export const channelModelsSchema = z.union(
  [
    z.array(nonEmpty).min(1, "must list at least one model"),
    z
      .record(nonEmpty, nonEmpty)
      .refine((map) => Object.keys(map).length > 0, "must map at least one model"),
  ],
  { error: "must be a list of model ids or a map of gateway id to upstream id" },
);

export const channelSchema = z.strictObject({
  name: nonEmpty,
  protocol: upstreamProtocolSchema,
  base_url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
  api_key: nonEmpty,
  models: channelModelsSchema,
  /** Lower tiers are tried first. */
  priority: z.number().int().default(0),
  /** Relative share of traffic inside a priority tier. */
  weight: z.number().positive().default(1),
  /**
   * false: this upstream offers no prompt caching (or it must not be used); requests with a
   * cache boundary run as ordinary requests on it (docs/api-reference.md cache rule 7).
   */
  caching: z.boolean().default(true),
  /**
   * The `/v1/audio/speech` formats this upstream produces (an OpenAI-compatible server may lack
   * some); unset: all of OpenAI's. A format no channel of the model produces is a 400 naming
   * the ones they do.
   */
  speech_formats: z.array(z.enum(SPEECH_FORMATS)).min(1).optional(),
  /**
   * Upstream calls in flight on this channel at once; a stream holds one until it ends. Past it
   * a call waits up to `queue_timeout_ms`, then tries the next channel or gets 503.
   */
  max_connections: z.number().int().positive().default(8_192),
  queue_timeout_ms: z.number().int().nonnegative().default(1_000),
  /**
   * Bounds on a silent upstream (ms): until its first byte (a non-stream reply is generated by
   * then), and between two chunks after it. Unset: the gateway's defaults (300 s, 120 s).
   */
  timeout: z
    .strictObject({
      first_byte_ms: z.number().int().positive().optional(),
      idle_ms: z.number().int().positive().optional(),
    })
    .optional(),
});

export const modelPriceSchema = z
  .strictObject({
    input: price.optional(),
    output: price.optional(),
    cached_input: price.optional(),
    cache_write: price.optional(),
    per_request: price.optional(),
    per_second: price.optional(),
    per_million_characters: price.optional(),
    per_minute: price.optional(),
    /** Cache writes with a 1-hour ttl (Anthropic); cache_write applies when absent. */
    cache_write_1h: price.optional(),
    /** Per 1M cached tokens per hour of ttl, charged once when the gateway creates a cache. */
    cache_storage_per_hour: price.optional(),
    /**
     * The most output tokens one reply of the model can have: what a call that names no max
     * tokens holds (and the cap of one that names more). Not a price, but billing's model data.
     */
    max_output_tokens: z.number().int().positive().optional(),
  })
  .refine((p) => Object.keys(p).length > 0, "must set at least one price");

/**
 * Responses kept for `store: true` (the Responses API default): how long they live, and the most
 * one stored response may hold (its whole conversation and its output, as JSON bytes).
 */
export const responsesSchema = z.strictObject({
  retention_days: z.number().positive().default(30),
  /**
   * Twice the default `limits.max_body_bytes`: any body the gateway reads (a 20 MB image is a
   * 28 MB data URI) is storable with the ids its items get and a turn of history; still a bound,
   * since a continued conversation grows with every turn.
   */
  max_bytes: z
    .number()
    .int()
    .positive()
    .default(64 * 1024 * 1024),
  /** How long a follow-up naming a response still being recorded waits for it (ms). */
  follow_up_wait_ms: z.number().int().min(0).default(10_000),
  /**
   * How long a runner owns a background response it started (ms), extended every third of it
   * while the call runs: past it, another instance (or this one after a restart) runs it again,
   * as a task whose runner died is taken over.
   */
  background_claim_ms: z
    .number()
    .int()
    .positive()
    .default(15 * 60_000),
  /**
   * Stream events kept per background response created with `stream: true`, for a resumed
   * stream (`GET /v1/responses/{id}?stream=true&starting_after=N`): past either bound, only its
   * terminal event is kept (a stream read live is not affected).
   */
  stream_events_max: z.number().int().positive().default(50_000),
  stream_events_max_bytes: z
    .number()
    .int()
    .positive()
    .default(16 * 1024 * 1024),
});

/**
 * `POST /v1/images/generations` answered synchronously (OpenAI's ImagesResponse), under the bare
 * envelope or `Prefer: wait=N`: how long it waits for the task when the client names no time,
 * and the most it waits whatever the client asks (seconds).
 */
export const imagesSchema = z.strictObject({
  wait_seconds: z.number().int().min(0).default(120),
  max_wait_seconds: z.number().int().min(0).default(600),
});

/** Prometheus metrics at `path` (GET, no auth: expose it only where scrapers reach it). */
export const metricsSchema = z.strictObject({
  enabled: z.boolean().default(false),
  path: nonEmpty.refine((p) => p.startsWith("/"), "must start with /").default("/metrics"),
});

/** OpenTelemetry spans through `@opentelemetry/api`; an SDK registered by the operator exports them. */
export const tracingSchema = z.strictObject({
  enabled: z.boolean().default(false),
});

export const configSchema = z
  .strictObject({
    listen: listenSchema.prefault({}),
    public_url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
    database_url: urlWithSchemes(["sqlite:", "postgres://", "postgresql://"]).default(
      "sqlite:./data/interlingua.db",
    ),
    redis_url: urlWithSchemes(["redis://", "rediss://"]).optional(),
    /** Prefix of every Redis key (limits, caches, pub/sub, queues): one per gateway fleet. */
    redis_prefix: nonEmpty.default("interlingua"),
    shutdown: shutdownSchema.prefault({}),
    tasks: tasksSchema.prefault({}),
    files_dir: nonEmpty.default("./data/files"),
    files: filesSchema.optional(),
    envelope: z.enum(["spec", "bare"]).default("spec"),
    billing: billingSchema.prefault({}),
    webhooks: webhooksSchema.prefault({}),
    limits: limitsSchema.prefault({}),
    users: z.array(userSchema).default([]),
    tokens: z.array(tokenSchema).default([]),
    /**
     * API keys with the admin role (docs/api-reference.md, management API): they read every
     * channel's health and every user's quota under `/api/admin/*`. Any key the gateway accepts
     * may be listed (one from `tokens`, or one created through `/api/token`).
     */
    admins: z.array(nonEmpty).default([]),
    channels: z.array(channelSchema).default([]),
    pricing: z.record(nonEmpty, modelPriceSchema).default({}),
    metrics: metricsSchema.prefault({}),
    tracing: tracingSchema.prefault({}),
    responses: responsesSchema.prefault({}),
    images: imagesSchema.prefault({}),
  })
  .superRefine((config, ctx) => {
    const duplicates = (
      values: string[],
      path: (i: number) => (string | number)[],
      what: string,
    ) => {
      const seen = new Set<string>();
      values.forEach((value, i) => {
        if (seen.has(value))
          ctx.addIssue({ code: "custom", path: path(i), message: `duplicate ${what}` });
        seen.add(value);
      });
    };
    duplicates(
      config.users.map((u) => u.id),
      (i) => ["users", i, "id"],
      "user id",
    );
    duplicates(
      config.tokens.map((t) => t.key),
      (i) => ["tokens", i, "key"],
      "token key",
    );
    duplicates(
      config.channels.map((c) => c.name),
      (i) => ["channels", i, "name"],
      "channel name",
    );
    const users = new Set(config.users.map((u) => u.id));
    config.tokens.forEach((token, i) => {
      if (!users.has(token.user)) {
        ctx.addIssue({
          code: "custom",
          path: ["tokens", i, "user"],
          message: `unknown user "${token.user}" (declare it under users)`,
        });
      }
    });
  });

export type GatewayConfig = z.output<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;
export type ChannelConfig = z.output<typeof channelSchema>;
export type TokenConfig = z.output<typeof tokenSchema>;
export type UserConfig = z.output<typeof userSchema>;
export type ModelPrice = z.output<typeof modelPriceSchema>;
export type RateLimitConfig = z.output<typeof rateLimitSchema>;
export type BillingConfig = z.output<typeof billingSchema>;
export type S3FilesConfig = z.output<typeof s3FilesSchema>;
