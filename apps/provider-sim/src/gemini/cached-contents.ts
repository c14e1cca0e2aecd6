import type { Context, Hono } from "hono";
import { parseDirectives } from "../core/directives.ts";
import type { SimEnv } from "../core/env.ts";
import { hexId } from "../core/hash.ts";
import { asArray, asObject, asString, isObject, type JsonObject } from "../core/json.ts";
import { type Produced, respond } from "../core/respond.ts";
import type { Sim } from "../core/sim.ts";
import { type CachedContent, type CacheStore, cachedContentJson } from "./cache-store.ts";
import { contentTokens } from "./generate-turn.ts";
import { unknownFieldError } from "./known-fields.ts";
import { geminiPreamble } from "./preamble.ts";

// cachedContents: create, get, list, update (ttl / expireTime) and delete.

const DEFAULT_TTL_SECONDS = 3600;
const CACHE_FIELDS = new Set([
  "model",
  "contents",
  "systemInstruction",
  "system_instruction",
  "tools",
  "toolConfig",
  "tool_config",
  "ttl",
  "expireTime",
  "expire_time",
  "displayName",
  "display_name",
]);

/** `ttl: "300s"` or `expireTime: <RFC 3339>`; undefined when neither is usable. */
function expiry(body: JsonObject, now: number): number | undefined {
  const ttl = asString(body.ttl);
  if (ttl !== undefined) {
    const seconds = /^(\d+(?:\.\d+)?)s$/.exec(ttl)?.[1];
    return seconds === undefined ? undefined : now + Number(seconds) * 1000;
  }
  const at = asString(body.expireTime ?? body.expire_time);
  if (at !== undefined) {
    const ms = Date.parse(at);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return now + DEFAULT_TTL_SECONDS * 1000;
}

type Handle = (c: Context<SimEnv>, body: JsonObject, now: number) => Produced;

/**
 * The text of the last user content a create holds: like a generate request's last user text, it
 * may carry a `[[fault:...]]` directive (e.g. `cache-create=503`), so a test can fail the cache
 * of one conversation while its requests still succeed.
 */
function lastUserText(body: JsonObject): string {
  const contents = asArray(body.contents).map(asObject);
  const last = contents.findLast((content) => content !== undefined && content.role !== "model");
  return asArray(last?.parts)
    .map((part) => asString(asObject(part)?.text) ?? "")
    .join("\n");
}

function handle(sim: Sim, action: Handle, create = false) {
  return (c: Context<SimEnv>) => {
    const request = geminiPreamble(c, sim);
    if (request instanceof Response) return request;
    const json = request.body.json;
    const body = isObject(json) ? json : {};
    return respond(c, sim, {
      errors: request.errors,
      faultDirective: create ? parseDirectives(lastUserText(body)).fault : undefined,
      faultKey: c.req.path,
      replay: undefined,
      cacheCreate: create,
      produce: () => action(c, body, sim.options.now()),
    });
  };
}

const notFound = (name: string): Produced => ({
  kind: "error",
  status: 403,
  details: { message: `CachedContent not found (or permission denied): ${name}` },
});

export function registerCachedContents(
  app: Hono<SimEnv>,
  sim: Sim,
  store: CacheStore,
  version: string,
): void {
  const base = `/${version}/cachedContents`;
  const nameOf = (c: Context<SimEnv>) => `cachedContents/${c.req.param("id") ?? ""}`;

  app.post(
    base,
    handle(
      sim,
      (_c, body, now) => {
        const model = asString(body.model);
        if (!model)
          return {
            kind: "error",
            status: 400,
            details: { message: "CachedContent.model is required." },
          };
        for (const key of Object.keys(body)) {
          if (!CACHE_FIELDS.has(key)) {
            return {
              kind: "error",
              status: 400,
              details: {
                message: `Invalid JSON payload received. Unknown name "${key}": Cannot find field.`,
              },
            };
          }
        }
        const unknownField = unknownFieldError(body, false);
        if (unknownField) return { kind: "error", status: 400, details: { message: unknownField } };
        const expiresAt = expiry(body, now);
        if (expiresAt === undefined)
          return { kind: "error", status: 400, details: { message: "Invalid ttl or expireTime." } };
        const entry: CachedContent = {
          name: `cachedContents/${hexId(`${JSON.stringify(body)}:${sim.sequence()}`, 16)}`,
          model: model.startsWith("models/") ? model : `models/${model}`,
          displayName: asString(body.displayName ?? body.display_name),
          createdAt: now,
          updatedAt: now,
          expiresAt,
          tokens: contentTokens(body),
        };
        store.put(entry);
        return { kind: "json", body: cachedContentJson(entry) };
      },
      true,
    ),
  );

  app.get(
    base,
    handle(sim, () => ({
      kind: "json",
      body: { cachedContents: store.list().map(cachedContentJson) },
    })),
  );

  app.get(
    `${base}/:id`,
    handle(sim, (c) => {
      const entry = store.get(nameOf(c));
      return entry ? { kind: "json", body: cachedContentJson(entry) } : notFound(nameOf(c));
    }),
  );

  app.patch(
    `${base}/:id`,
    handle(sim, (c, body, now) => {
      const entry = store.get(nameOf(c));
      if (!entry) return notFound(nameOf(c));
      const expiresAt = expiry(body, now);
      if (expiresAt === undefined)
        return { kind: "error", status: 400, details: { message: "Invalid ttl or expireTime." } };
      const updated = { ...entry, expiresAt, updatedAt: now };
      store.put(updated);
      return { kind: "json", body: cachedContentJson(updated) };
    }),
  );

  app.delete(
    `${base}/:id`,
    handle(sim, (c) =>
      store.delete(nameOf(c)) ? { kind: "json", body: {} } : notFound(nameOf(c)),
    ),
  );
}
