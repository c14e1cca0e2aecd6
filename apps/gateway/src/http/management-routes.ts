import {
  formatZodIssue,
  invalidRequest,
  notFound,
  permissionDenied,
  unauthenticated,
} from "@interlingua/errors";
import { normalizeLanguage, renderTask } from "@interlingua/tasks";
import type { Context, Hono } from "hono";
import type { z } from "zod";
import { newTokenScope, type Scope, type ScopeAsk, scopeChange } from "../auth/grant-scope.ts";
import { keyHash, keyHint, newApiKey } from "../auth/key-hash.ts";
import type { AuthenticatedToken, TokenStore } from "../auth/token-store.ts";
import { remainingCredits, userBalance } from "../billing/balances.ts";
import { drawForChange, drawForNewToken, giveBack } from "../billing/grant-quota.ts";
import { toBillingUnit } from "../billing/money.ts";
import type { AppEnv, KeyedEnv } from "../contract/app-env.ts";
import { readBodyText } from "../contract/client-contract.ts";
import { breakerKey } from "../routing/model-router.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import type { LogFilter, TokenPatch, TokenRow, UsageLogRow } from "../storage/store.ts";
import { taskSnapshot } from "../tasks/task-snapshot.ts";
import {
  createTokenSchema,
  type LogQuery,
  logQuerySchema,
  pageQuerySchema,
  tokenIdSchema,
  type UpdateTokenBody,
  updateTokenSchema,
} from "./management-schemas.ts";
import { requireKey } from "./require-key.ts";

type Ctx = Context<KeyedEnv>;
/** A route's `data`; refusals are thrown, answered `{success: false, message, data: null}`. */
type Handle = (c: Ctx, token: AuthenticatedToken) => Promise<unknown>;

// Every issue, each worded as the generation endpoints word their first (`name: field required`).
const issueText = (error: z.ZodError) =>
  error.issues.map((issue) => formatZodIssue(issue, "body").message).join("; ");

const unixSeconds = (ms: number | undefined) => (ms === undefined ? -1 : Math.floor(ms / 1000));

function tokenView(row: TokenRow, tokens: TokenStore) {
  return {
    id: row.id,
    name: row.name,
    key_hint: row.keyHint,
    status: row.status,
    remain_quota: row.unlimited ? -1 : remainingCredits(row),
    used_quota: row.used,
    unlimited_quota: row.unlimited,
    expired_time: unixSeconds(row.expiresAt),
    models: row.models ?? null,
    source: row.source,
    created_time: unixSeconds(row.createdAt),
    rate_limit: tokens.ownRateLimit(row) ?? null,
  };
}

function logView(row: UsageLogRow) {
  return {
    id: row.id,
    request_id: row.requestId,
    created_at: unixSeconds(row.time),
    token_name: row.tokenName,
    model_name: row.model,
    channel: row.channel ?? null,
    endpoint: row.endpoint,
    prompt_tokens: row.promptTokens,
    completion_tokens: row.completionTokens,
    cached_tokens: row.cachedTokens,
    cache_write_tokens: row.cacheWriteTokens,
    thinking_tokens: row.thinkingTokens,
    quota: row.credits,
    cost: row.cost,
    latency_ms: row.latencyMs,
    is_stream: row.stream,
    status: row.status,
    error: row.error ?? null,
    // The upstream reported no (final) usage: tokens and charge are the gateway's estimate.
    estimated: row.estimated === true,
  };
}

const logFilter = (userId: string, query: LogQuery): LogFilter => ({
  userId,
  ...(query.model_name === undefined ? {} : { model: query.model_name }),
  ...(query.token_name === undefined ? {} : { tokenName: query.token_name }),
  ...(query.start_timestamp === undefined ? {} : { from: query.start_timestamp * 1000 }),
  ...(query.end_timestamp === undefined ? {} : { to: query.end_timestamp * 1000 + 1000 }),
  ...(query.status === undefined
    ? {}
    : query.status === "ok"
      ? { statusBelow: 400 }
      : query.status === "error"
        ? { statusFrom: 400 }
        : { status: query.status }),
});

/** What a caller passes on: its own models and expiry, and the rate limits it runs under. */
const scopeOf = (row: TokenRow, token: AuthenticatedToken): Scope => ({
  models: row.models,
  expiresAt: row.expiresAt,
  rateLimit: token.rateLimit,
});

/** The scope fields of a create or update body; -1 (never expires) is null. */
const scopeAsk = (body: {
  expired_time?: number | undefined;
  models?: readonly string[] | null | undefined;
  rate_limit?: { rpm?: number | undefined; tpm?: number | undefined } | null | undefined;
}): ScopeAsk => ({
  models: body.models,
  expiresAt:
    body.expired_time === undefined
      ? undefined
      : body.expired_time === -1
        ? null
        : body.expired_time * 1000,
  rateLimit: body.rate_limit,
});

const patchOf = (body: UpdateTokenBody): TokenPatch => ({
  ...(body.name === undefined ? {} : { name: body.name }),
  ...(body.remain_quota === undefined ? {} : { remaining: body.remain_quota }),
  ...(body.unlimited_quota === undefined ? {} : { unlimited: body.unlimited_quota }),
  ...(body.expired_time === undefined
    ? {}
    : { expiresAt: body.expired_time === -1 ? null : body.expired_time * 1000 }),
  ...(body.models === undefined ? {} : { models: body.models }),
  ...(body.status === undefined ? {} : { status: body.status }),
});

/** The body as JSON, read up to the body cap (413 past it); undefined when not JSON. */
async function readJson(c: Ctx, limit: number): Promise<unknown> {
  const text = await readBodyText(c.req.raw, limit);
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The management API under `/api/*` with its `{success, message, data}` envelope, acting on the
 * caller's own account: who am I, my usage logs and their totals, my tokens. The caller is the
 * user that owns the API key presented as `Authorization: Bearer`. A key grants no more than it
 * has, to other tokens or itself (403 otherwise): models, expiry and rate limits within its own
 * (auth/grant-scope.ts), quota drawn from its own remaining (auth/grant-quota.ts).
 */
export function mountManagementRoutes(app: Hono<AppEnv>, services: GatewayServices): void {
  const billing = services.config.billing;
  const keyed = requireKey(services);
  // Mounted behind `keyed`: its refusals, like the routes', answer in the path's envelope.
  const route = (handle: Handle) => async (c: Ctx) =>
    c.json({ success: true, message: "", data: await handle(c, c.get("token")) });

  const adminHashes = new Set(services.config.admins.map((key) => keyHash(key)));
  /** Whether the caller's key is listed under the config's `admins`. */
  const isAdmin = async (token: AuthenticatedToken): Promise<boolean> => {
    if (adminHashes.size === 0) return false;
    const row = await services.store.getToken(token.id);
    return row !== undefined && adminHashes.has(row.keyHash);
  };
  const adminRoute = (handle: Handle) =>
    route(async (c, token) => {
      if (!(await isAdmin(token))) throw permissionDenied("this key is not an admin key");
      return handle(c, token);
    });

  app.get(
    "/api/admin/channels",
    keyed,
    adminRoute(async () => {
      const now = Date.now();
      const breakers = services.router.breaker.snapshot();
      const items = services.router.channels().map((channel) => {
        const routes = [...channel.models].map(([gatewayModel, upstreamModel]) => {
          const state = breakers.find((b) => b.key === breakerKey(channel.name, upstreamModel));
          return {
            model: gatewayModel,
            upstream_model: upstreamModel,
            breaker: state?.phase ?? "closed",
            failures: state?.failures ?? 0,
            cooldown_until:
              state?.openUntil === null || state === undefined || state.openUntil <= now
                ? null
                : Math.floor(state.openUntil / 1000),
            cooldown_ms: state?.cooldownMs ?? null,
          };
        });
        const worst = routes.some((r) => r.breaker === "open")
          ? "open"
          : routes.some((r) => r.breaker === "half-open")
            ? "half-open"
            : "closed";
        return {
          name: channel.name,
          protocol: channel.protocol,
          priority: channel.priority,
          weight: channel.weight,
          breaker: worst,
          ...services.router.health.view(channel.name),
          routes,
        };
      });
      return { items };
    }),
  );

  app.get(
    "/api/admin/users",
    keyed,
    adminRoute(async () => {
      const items = [];
      for (const { id } of services.config.users) {
        const user = await services.store.getUser(id);
        if (user === undefined) continue;
        items.push(userFields(user, userBalance(user, billing)));
      }
      return { items, unit: billing.unit };
    }),
  );

  app.get(
    "/api/task/self",
    keyed,
    route(async (c, token) => {
      const query = pageQuerySchema.safeParse({
        ...(c.req.query("p") === undefined ? {} : { p: c.req.query("p") }),
        ...(c.req.query("page_size") === undefined ? {} : { page_size: c.req.query("page_size") }),
      });
      if (!query.success) throw invalidRequest(issueText(query.error));
      const { p, page_size } = query.data;
      const tasks = services.store.tasks;
      if (tasks.listByUser === undefined) throw notFound("task listing is not available");
      const page = await tasks.listByUser(token.userId, {
        offset: (p - 1) * page_size,
        limit: page_size,
      });
      const deliveries =
        (await services.store.webhooks.forTasks?.(page.items.map((t) => t.id))) ?? [];
      const language = normalizeLanguage(c.req.query("language"));
      const items = page.items.map((task) => {
        const delivery = deliveries.find((d) => d.taskId === task.id);
        return {
          ...renderTask(taskSnapshot(task), language === undefined ? {} : { language }),
          kind: task.kind,
          model: task.model,
          webhook:
            delivery === undefined
              ? null
              : {
                  url: delivery.url,
                  status: delivery.status,
                  attempts: delivery.attempts,
                  last_status: delivery.lastStatus ?? null,
                  last_error: delivery.lastError ?? null,
                  next_attempt_at:
                    delivery.status === "pending" ? unixSeconds(delivery.nextAttemptAt) : null,
                  updated_at: unixSeconds(delivery.updatedAt),
                },
        };
      });
      return { items, total: page.total, page: p, page_size };
    }),
  );

  app.get(
    "/api/response/self",
    keyed,
    route(async (c, token) => {
      const query = pageQuerySchema.safeParse(c.req.query());
      if (!query.success) throw invalidRequest(issueText(query.error));
      const { p, page_size } = query.data;
      const responses = services.store.responses;
      if (responses.listByUser === undefined) throw notFound("response listing is not available");
      const page = await responses.listByUser(token.userId, services.now(), {
        offset: (p - 1) * page_size,
        limit: page_size,
      });
      const items = page.items.map((row) => ({
        id: row.id,
        status: row.status,
        model: typeof row.body["model"] === "string" ? row.body["model"] : null,
        previous_response_id: row.previousId ?? null,
        background: row.background,
        bytes: row.bytes,
        created_at: unixSeconds(row.createdAt),
        expires_at: unixSeconds(row.expiresAt),
      }));
      return { items, total: page.total, page: p, page_size };
    }),
  );

  app.get(
    "/api/user/self",
    keyed,
    route(async (_c, token) => {
      const user = await services.store.getUser(token.userId);
      if (user === undefined) throw notFound("user record does not exist");
      const balance = userBalance(user, billing);
      return {
        ...userFields(user, balance),
        unit: billing.unit,
        // "admin" for a key listed under the config's `admins` (the /api/admin/* routes).
        role: (await isAdmin(token)) ? "admin" : "user",
      };
    }),
  );

  app.get(
    "/api/log/self",
    keyed,
    route(async (c, token) => {
      const query = logQuerySchema.safeParse(c.req.query());
      if (!query.success) throw invalidRequest(issueText(query.error));
      const { p, page_size } = query.data;
      const page = await services.store.queryLogs(logFilter(token.userId, query.data), {
        offset: (p - 1) * page_size,
        limit: page_size,
      });
      return { items: page.items.map(logView), total: page.total, page: p, page_size };
    }),
  );

  app.get(
    "/api/log/self/stat",
    keyed,
    route(async (c, token) => {
      const query = logQuerySchema.safeParse(c.req.query());
      if (!query.success) throw invalidRequest(issueText(query.error));
      const stats = await services.store.logStats(logFilter(token.userId, query.data));
      return {
        requests: stats.requests,
        prompt_tokens: stats.promptTokens,
        completion_tokens: stats.completionTokens,
        cached_tokens: stats.cachedTokens,
        cache_write_tokens: stats.cacheWriteTokens,
        thinking_tokens: stats.thinkingTokens,
        quota: stats.credits,
        cost: toBillingUnit(stats.credits, billing),
        unit: billing.unit,
      };
    }),
  );

  app.get(
    "/api/log/self/daily",
    keyed,
    route(async (c, token) => {
      const query = logQuerySchema.safeParse(c.req.query());
      if (!query.success) throw invalidRequest(issueText(query.error));
      const days = (await services.store.logDaily?.(logFilter(token.userId, query.data))) ?? [];
      return {
        items: days.map((d) => ({
          day: unixSeconds(d.day),
          model_name: d.model,
          requests: d.requests,
          prompt_tokens: d.promptTokens,
          completion_tokens: d.completionTokens,
          quota: d.credits,
        })),
        unit: billing.unit,
      };
    }),
  );

  /** The caller's own token row, read now (its quota and flags, not a cached copy). */
  const callerRow = async (token: AuthenticatedToken): Promise<TokenRow> => {
    const row = await services.store.getToken(token.id);
    if (row === undefined) throw unauthenticated("invalid API key");
    return row;
  };

  /** The caller's token of that id (path parameter or body field); 400 or 404 thrown otherwise. */
  const ownToken = async (id: unknown, token: AuthenticatedToken): Promise<TokenRow> => {
    const parsed = tokenIdSchema.safeParse(String(id ?? ""));
    if (!parsed.success) throw invalidRequest("id: must be a positive integer");
    const row = await services.store.getToken(parsed.data);
    if (row === undefined || row.userId !== token.userId) throw notFound("token not found");
    return row;
  };

  const listTokens = route(async (c, token) => {
    const query = pageQuerySchema.safeParse(c.req.query());
    if (!query.success) throw invalidRequest(issueText(query.error));
    const { p, page_size } = query.data;
    const page = await services.store.listTokens(token.userId, {
      offset: (p - 1) * page_size,
      limit: page_size,
    });
    return {
      items: page.items.map((row) => tokenView(row, services.tokens)),
      total: page.total,
      page: p,
      page_size,
    };
  });
  app.get("/api/token", keyed, listTokens);
  app.get("/api/token/", keyed, listTokens);

  app.get(
    "/api/token/:id",
    keyed,
    route(async (c, token) => {
      return tokenView(await ownToken(c.req.param("id"), token), services.tokens);
    }),
  );

  const createToken = route(async (c, token) => {
    const body = createTokenSchema.safeParse(
      await readJson(c, services.config.limits.max_body_bytes),
    );
    if (!body.success) throw invalidRequest(issueText(body.error));
    const caller = await callerRow(token);
    const granted = newTokenScope(scopeOf(caller, token), scopeAsk(body.data));
    if (!granted.ok) throw permissionDenied(granted.reason);
    const draw = await drawForNewToken(services.store, caller, {
      remaining: body.data.remain_quota,
      unlimited: body.data.unlimited_quota,
    });
    if (!draw.ok) throw permissionDenied(draw.reason);
    const key = newApiKey();
    const { scope } = granted;
    let row: TokenRow;
    try {
      row = await services.store.createToken({
        keyHash: keyHash(key),
        keyHint: keyHint(key),
        name: body.data.name,
        userId: token.userId,
        quota: body.data.remain_quota,
        unlimited: body.data.unlimited_quota,
        expiresAt: scope.expiresAt,
        models: scope.models,
        ...(Object.keys(scope.rateLimit).length === 0 ? {} : { rateLimit: scope.rateLimit }),
        source: "api",
      });
    } catch (error) {
      await giveBack(services.store, caller, draw);
      throw error;
    }
    services.tokens.invalidate(caller.keyHash);
    // The only time the key is shown: it is stored as a hash.
    return { ...tokenView(row, services.tokens), key };
  });
  app.post("/api/token", keyed, createToken);
  app.post("/api/token/", keyed, createToken);

  const updateToken = (idFrom: (c: Ctx, body: UpdateTokenBody) => unknown) =>
    route(async (c, token) => {
      const body = updateTokenSchema.safeParse(
        await readJson(c, services.config.limits.max_body_bytes),
      );
      if (!body.success) throw invalidRequest(issueText(body.error));
      const target = await ownToken(idFrom(c, body.data), token);
      const caller = await callerRow(token);
      const change = scopeChange(scopeOf(caller, token), scopeAsk(body.data));
      if (!change.ok) throw permissionDenied(change.reason);
      const draw = await drawForChange(services.store, caller, target, {
        remaining: body.data.remain_quota,
        unlimited: body.data.unlimited_quota,
      });
      if (!draw.ok) throw permissionDenied(draw.reason);
      const patch: TokenPatch = {
        ...patchOf(body.data),
        ...(change.rateLimit === undefined ? {} : { rateLimit: change.rateLimit }),
      };
      const row = await services.store.updateToken(target.id, token.userId, patch);
      if (row === undefined) {
        await giveBack(services.store, caller, draw);
        throw notFound("token not found");
      }
      services.tokens.invalidate(row.keyHash);
      services.tokens.invalidate(caller.keyHash);
      return tokenView(row, services.tokens);
    });
  const updateByBodyId = updateToken((_c, body) => body.id);
  app.put("/api/token", keyed, updateByBodyId);
  app.put("/api/token/", keyed, updateByBodyId);
  app.put(
    "/api/token/:id",
    keyed,
    updateToken((c) => c.req.param("id")),
  );

  app.delete(
    "/api/token/:id",
    keyed,
    route(async (c, token) => {
      const row = await ownToken(c.req.param("id"), token);
      await services.store.deleteToken(row.id, token.userId);
      services.tokens.invalidate(row.keyHash);
      return null;
    }),
  );
}

/** A user's quota and balance as `/api/user/self` and the admin listing show them. */
function userFields(
  user: { id: string; quota: number; used: number; reserved: number; unlimited: boolean },
  balance: ReturnType<typeof userBalance>,
) {
  return {
    id: user.id,
    quota: user.quota,
    used_quota: user.used,
    reserved_quota: user.reserved,
    remain_quota: balance.remain_credits,
    unlimited_quota: user.unlimited,
    remain_balance: balance.remain_balance,
    used_balance: balance.used_balance,
  };
}
