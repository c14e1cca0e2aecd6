import type { IncomingMessage, ServerResponse } from "node:http";
import { GatewayError, invalidRequest, type KeyRedactor, unavailable } from "@interlingua/errors";
import type { MiddlewareHandler } from "hono";
import { readCredential } from "../auth/credential-sources.ts";
import type { AppEnv } from "../contract/app-env.ts";
import { newRequestId } from "../contract/client-contract.ts";
import { COUNT_ROUTES, GENERATION_ROUTES } from "../contract/endpoints.ts";
import type { BodyReadResult } from "../contract/read-body.ts";
import { RequestObserver } from "../observe/observe-requests.ts";
import { TextReply } from "../pipeline/respond-json.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { RelayResponse, writeRelay } from "../stream/direct-relay.ts";
import { answerCount } from "./count-handler.ts";
import { answerGeneration, type GenerationCall } from "./generation-handler.ts";
import { parseCountTarget } from "./native-target.ts";
import { redactRelay, redactResponse } from "./redact-outbound.ts";
import { requestIdHeaders } from "./request-id-headers.ts";
import { answerThrown, envelopeOf, pathErrorResponse } from "./route-envelope.ts";

export type Listener = (incoming: IncomingMessage, outgoing: ServerResponse) => void;
type Answer = (call: GenerationCall) => Promise<Response | TextReply>;

interface Route {
  /** The route's pattern (the metrics label). */
  readonly pattern: string;
  readonly answer: Answer;
  /** The headers its replies carry the request id in. */
  readonly ids: readonly string[];
}

const TARGET = ":target";

/** What a reply with a body and no Content-Type of its own is sent as (Hono's default). */
const DEFAULT_CONTENT_TYPE = "text/plain; charset=UTF-8";
const CLIENT_GONE = "Client connection prematurely closed.";

/** The generation routes by path: exact ones, and the native ones by the prefix of `{model}:{method}`. */
class GenerationRoutes {
  readonly #exact = new Map<string, Route>();
  readonly #prefixed: (readonly [string, Route])[] = [];

  constructor(services: GatewayServices) {
    // A native path counts with its `{model}:countTokens` segment, and generates with the others.
    const countsAt = new Map<string, Answer>();
    for (const { path, endpoint } of COUNT_ROUTES) {
      const answer = answerCount(services, endpoint);
      if (path.endsWith(`/${TARGET}`)) countsAt.set(path, answer);
      else this.#exact.set(path, { pattern: path, answer, ids: requestIdHeaders(path) });
    }
    for (const { path, endpoint } of GENERATION_ROUTES) {
      const generate = answerGeneration(services, endpoint);
      const count = countsAt.get(path);
      const answer: Answer =
        count === undefined
          ? generate
          : (call) =>
              call.target !== undefined && parseCountTarget(call.target) !== undefined
                ? count(call)
                : generate(call);
      const route = { pattern: path, answer, ids: requestIdHeaders(path) };
      if (path.endsWith(`/${TARGET}`)) this.#prefixed.push([path.slice(0, -TARGET.length), route]);
      else this.#exact.set(path, route);
    }
  }

  /** The route of a routed path, and its native target segment as it came (escapes and all). */
  match(path: string): { route: Route; target: string | undefined } | undefined {
    const route = this.#exact.get(path);
    if (route !== undefined) return { route, target: undefined };
    for (const [prefix, native] of this.#prefixed) {
      if (!path.startsWith(prefix)) continue;
      const segment = path.slice(prefix.length);
      // One non-empty segment, as a path parameter matches.
      if (segment === "" || segment.includes("/")) return undefined;
      // Left escaped: `parseNativeTarget` decodes it, once.
      return { route: native, target: segment };
    }
    return undefined;
  }
}

/**
 * The gateway's one entrance, on `node:http`: every request comes in here. The generation
 * routes are answered here, whatever the form of their request (absolute URL, percent-escapes,
 * repeated headers), without web Request and Response objects: a JSON reply is written as the
 * text it was made as, a stream as its relay. Every other route is the `app`'s (Hono, through
 * its Node adapter). Both apply the same steps (observation, request id, the body `guards`,
 * outbound redaction); `guards` are the app's own, so a body counts in flight once.
 */
export function frontDoor(services: GatewayServices, guards: BodyGuards, app: Listener): Listener {
  const routes = new GenerationRoutes(services);
  const { metrics, config, redactor } = services;
  const observer =
    metrics !== undefined || config.tracing.enabled
      ? new RequestObserver(metrics, config.tracing.enabled)
      : undefined;
  const served: Served = { services, observer, guards, redactor };

  return (incoming, outgoing) => {
    if (incoming.method !== "POST") return app(incoming, outgoing);
    const path = routedPath(incoming.url ?? "");
    const found = path === undefined ? undefined : routes.match(path);
    if (path === undefined || found === undefined) return app(incoming, outgoing);
    serveGeneration(served, incoming, outgoing, path, found.route, found.target).catch(
      (error: unknown) => {
        services.log.error({ err: error }, "unhandled error writing a reply");
        if (!outgoing.headersSent) outgoing.writeHead(500);
        outgoing.end();
      },
    );
  };
}

interface Served {
  readonly services: GatewayServices;
  readonly observer: RequestObserver | undefined;
  readonly guards: BodyGuards;
  readonly redactor: KeyRedactor;
}

/** The URL of a request: its absolute-form target, or its target on its Host. */
function requestUrl(incoming: IncomingMessage): URL | undefined {
  const target = incoming.url ?? "/";
  const base = target[0] === "/" ? `http://${incoming.headers.host ?? ""}` : undefined;
  // One parse on the hot path (`URL.canParse` first would be two).
  try {
    return new URL(target, base);
  } catch {
    return undefined;
  }
}

async function serveGeneration(
  served: Served,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  path: string,
  route: Route,
  target: string | undefined,
): Promise<void> {
  const { services, observer, guards } = served;
  const observation =
    observer === undefined
      ? undefined
      : { observer, observed: observer.start("POST", path, incoming.headers) };
  const requestId = newRequestId();
  const headers = IncomingHeaders.of(incoming);
  // The client leaving before its reply was written cancels what is under way.
  const abort = new AbortController();
  // `on`, not `once`: close comes once, and a once-wrapper is two more objects per request.
  outgoing.on("close", () => {
    if (incoming.errored) abort.abort(incoming.errored.toString());
    else if (!outgoing.writableFinished) abort.abort(CLIENT_GONE);
  });
  const handle = async (): Promise<Response | TextReply> => {
    const url = requestUrl(incoming);
    if (url === undefined) {
      return pathErrorResponse(path, invalidRequest("invalid Host header"), requestId);
    }
    const given = guards.admit(path, headers, url);
    const admitted = given instanceof Promise ? await given : given;
    if (admitted instanceof GatewayError) return pathErrorResponse(path, admitted, requestId);
    try {
      return await route.answer({
        requestId,
        url,
        target,
        headers,
        readBody: (limit) => readIncomingCapped(incoming, limit),
        signal: abort.signal,
      });
    } finally {
      guards.release(admitted);
    }
  };
  let reply: Response | TextReply;
  try {
    reply = await (observation === undefined
      ? handle()
      : observation.observer.run(observation.observed, handle));
  } catch (thrown) {
    // Not the route's refusals (`answerGeneration` answers those): a bug around them.
    const url = requestUrl(incoming) ?? new URL(path, "http://gateway.invalid");
    reply = answerThrown(services.log, thrown, { requestId, url, errors: envelopeOf(path) });
  }
  if (observation !== undefined) {
    const stream = reply instanceof RelayResponse;
    const { observer: seen, observed } = observation;
    seen.end(observed, "POST", route.pattern, reply.status, stream, requestId);
  }
  await writeReply(outgoing, reply, requestId, route.ids, served.redactor);
}

/** `idHeaders`: the header names the request id goes out under (the route's). */
async function writeReply(
  outgoing: ServerResponse,
  reply: Response | TextReply,
  requestId: string,
  idHeaders: readonly string[],
  redactor: KeyRedactor,
): Promise<void> {
  if (reply instanceof TextReply) {
    const headers: Record<string, string | number> = { ...reply.headers };
    if (redactor.active)
      for (const name in headers) headers[name] = redactor.redact(String(headers[name]));
    for (const name of idHeaders) headers[name] = requestId;
    headers["content-length"] = Buffer.byteLength(reply.text);
    outgoing.writeHead(reply.status, headers);
    outgoing.end(reply.text);
    return;
  }
  if (reply instanceof RelayResponse) {
    if (redactor.active) redactRelay(reply, redactor);
    for (const name of idHeaders) reply.headers.set(name, requestId);
    writeRelay(outgoing, reply);
    return;
  }
  const response = redactor.active ? await redactResponse(reply, redactor) : reply;
  const headers: Record<string, string | number> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  for (const name of idHeaders) headers[name] = requestId;
  if (response.body === null) {
    outgoing.writeHead(response.status, headers);
    outgoing.end();
    return;
  }
  const body = Buffer.from(await response.arrayBuffer());
  headers["content-type"] ??= DEFAULT_CONTENT_TYPE;
  headers["content-length"] = body.byteLength;
  outgoing.writeHead(response.status, headers);
  outgoing.end(body);
}

// The routed path: what a request target routes by.

/** A path the URL parser would leave as it is: no escape, no space, nothing to normalise. */
const PLAIN_PATH = /^\/[!#$&-;=?-[\]_a-z~]*$/;
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;
const ABSOLUTE = /^https?:\/\//i;

/**
 * The path a request is routed by, read from its request target as Hono routes it: dot segments
 * resolved, percent-escapes decoded except those of reserved characters and of `%` itself
 * (`%2F` and `%25` stay, so a path parameter may hold them, decoded once by its reader). An
 * absolute-form target (`POST http://host/path`) routes by its path. Undefined for a target the
 * server refuses (a backslash in the path, an unparsable URL).
 */
export function routedPath(target: string): string | undefined {
  const query = target.indexOf("?");
  let path = query === -1 ? target : target.slice(0, query);
  if (path.includes("\\")) return undefined;
  if (path[0] === "/") {
    if (PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path)) return path;
    path = parsedPath(path, "http://gateway.invalid");
  } else if (ABSOLUTE.test(path)) {
    path = parsedPath(target, undefined);
  } else {
    return undefined;
  }
  if (path === "") return undefined;
  if (!path.includes("%")) return path;
  try {
    // `%25` stays escaped, so that the one decode of a parameter cannot read a `%` it made.
    return decodeURI(path.replaceAll("%25", "%2525"));
  } catch {
    return path;
  }
}

/** The URL parser's path of `target` ("" when it cannot parse it: no route matches ""). */
function parsedPath(target: string, base: string | undefined): string {
  return URL.canParse(target, base) ? new URL(target, base).pathname : "";
}

// A Node request read without web objects: its headers and its capped body.

/** What the generation path reads of a request's headers (a web `Headers` is one). */
export interface HeaderReader {
  get(name: string): string | null;
  has(name: string): boolean;
}

/**
 * The request headers Node parsed, read as a web `Headers` reads them, without building one. A
 * header named more than once reads as all its values joined by ", ", as `Headers` joins them
 * (Node keeps only the first of some, such as Authorization and Content-Type).
 */
class IncomingHeaders implements HeaderReader {
  readonly #headers: Readonly<Record<string, string | string[] | undefined>>;

  private constructor(headers: Readonly<Record<string, string | string[] | undefined>>) {
    this.#headers = headers;
  }

  static of(incoming: IncomingMessage): IncomingHeaders {
    return new IncomingHeaders(
      hasRepeatedHeaders(incoming) ? incoming.headersDistinct : incoming.headers,
    );
  }

  get(name: string): string | null {
    const value = this.#headers[name.toLowerCase()];
    if (value === undefined) return null;
    return typeof value === "string" ? value : value.join(", ");
  }

  has(name: string): boolean {
    return this.#headers[name.toLowerCase()] !== undefined;
  }
}

/** Whether a header name came more than once (Node then keeps one value, or joins them its way). */
function hasRepeatedHeaders(incoming: IncomingMessage): boolean {
  let names = 0;
  for (const _ in incoming.headers) names++;
  return names * 2 !== incoming.rawHeaders.length;
}

/**
 * `readBodyCapped` of a Node request: a declared Content-Length above `limit` is refused before
 * anything is read, and reading stops once more than `limit` bytes came.
 */
function readIncomingCapped(incoming: IncomingMessage, limit: number): Promise<BodyReadResult> {
  const declared = Number(incoming.headers["content-length"] ?? Number.NaN);
  if (declared > limit) return Promise.resolve({ ok: false, kind: "too-large", limit });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (result: BodyReadResult) => {
      incoming.off("data", onData);
      incoming.off("end", onEnd);
      incoming.off("error", onFailure);
      incoming.off("close", onFailure);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        // The rest is not read: Node discards it once the response is sent.
        incoming.pause();
        done({ ok: false, kind: "too-large", limit });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () =>
      done({
        ok: true,
        text:
          chunks.length === 1
            ? (chunks[0] as Buffer).toString("utf8")
            : Buffer.concat(chunks, size).toString("utf8"),
      });
    const onFailure = () => done({ ok: false, kind: "aborted" });
    if (incoming.destroyed) {
      onFailure();
      return;
    }
    incoming.on("data", onData);
    incoming.once("end", onEnd);
    incoming.once("error", onFailure);
    // Closed before its end: the client left (an ended body emits end first).
    incoming.once("close", onFailure);
  });
}

// The body guards: checks both servers make before a body is read.

/** The endpoints that take multipart bodies (files): every other body is JSON. */
const MULTIPART_PATHS = new Set(["/v1/uploads/images", "/v1/audio/transcriptions"]);

const isJsonType = (type: string) => {
  const media = (type.split(";")[0] ?? "").trim().toLowerCase();
  return media === "application/json" || /^application\/[\w.+-]*\+json$/.test(media);
};

/** Declared body bytes; undefined for a chunked body, 0 for none. */
function declaredBody(headers: Pick<Headers, "get" | "has">): number | undefined {
  const length = headers.get("content-length");
  if (length !== null) return Number(length) || 0;
  return headers.has("transfer-encoding") ? undefined : 0;
}

/**
 * The API key the request offers anywhere a route reads one. Without one, or with one that is
 * not a live key, the route's 401 comes first (docs/api-reference.md, Authentication): the body
 * is never read, so its type does not matter.
 */
const offeredKey = (headers: Pick<Headers, "get">, url: string | URL): string | undefined =>
  readCredential("any", headers, typeof url === "string" ? new URL(url) : url);

/**
 * Checks that run before any route reads a body: a body on a JSON endpoint must say it is JSON
 * (415 otherwise; no Content-Type at all is read as JSON, as clients that forget it expect), and
 * the bytes of bodies read at once stay under `limits.max_inflight_body_bytes` (503 with
 * Retry-After otherwise). Shared by the Hono middleware and the Node route of the generation
 * endpoints.
 *
 * In flight, across requests: many large bodies at the same time would otherwise each be
 * admitted by the per-request cap and add up. A body is counted by its declared length, or by
 * the per-request cap when it declares none (chunked), from before its handler runs until it
 * returns. One body is always admitted when nothing else is in flight, so the cap never refuses
 * everything.
 */
export class BodyGuards {
  readonly #limits: GatewayServices["config"]["limits"];
  readonly #tokens: Pick<GatewayServices["tokens"], "lookup">;
  /** Bytes of request bodies being read (or held) now. */
  #inflight = 0;

  constructor(services: Pick<GatewayServices, "config" | "tokens">) {
    this.#limits = services.config.limits;
    this.#tokens = services.tokens;
  }

  /**
   * The bytes counted in flight for the request (0 for none; `release` them once its handler
   * returned), or the error to refuse it with. A body that is not JSON is refused only after its
   * key checked out (a promise then, the rare case), so a bad key hears 401 first.
   */
  admit(
    path: string,
    headers: Pick<Headers, "get" | "has">,
    url: string | URL,
  ): number | GatewayError | Promise<number | GatewayError> {
    const declared = declaredBody(headers);
    if (declared === 0) return 0;
    const type = headers.get("content-type");
    if (type !== null && !MULTIPART_PATHS.has(path) && !isJsonType(type)) {
      const key = offeredKey(headers, url);
      if (key !== undefined) return this.#refuseType(key, type);
    }
    return this.#count(declared);
  }

  /** 415, or nothing when the key is not live: the route's own 401 then answers. */
  async #refuseType(key: string, type: string): Promise<number | GatewayError> {
    const found = await this.#tokens.lookup(key);
    if (!found.ok) return 0;
    return new GatewayError({
      status: 415,
      message: `Content-Type must be application/json, not ${type.slice(0, 100)}`,
    });
  }

  #count(declared: number | undefined): number | GatewayError {
    const limits = this.#limits;
    // A body over the per-request cap is refused by its reader; count at most that much of it.
    const size = Math.min(declared ?? limits.max_body_bytes, limits.max_body_bytes);
    if (this.#inflight > 0 && this.#inflight + size > limits.max_inflight_body_bytes) {
      return unavailable("too many request bodies are being received at once; retry later", {
        retryAfterSeconds: 1,
      });
    }
    this.#inflight += size;
    return size;
  }

  release(size: number): void {
    if (size > 0) this.#inflight = Math.max(0, this.#inflight - size);
  }
}

/**
 * `BodyGuards` as Hono middleware: refusals answer in the envelope of the path. Pass the guards
 * the generation listener uses, so one count holds every body in flight.
 */
export function requestGuards(
  services: GatewayServices,
  guards = new BodyGuards(services),
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const admitted = await guards.admit(c.req.path, c.req.raw.headers, c.req.url);
    if (admitted instanceof GatewayError) {
      return pathErrorResponse(c.req.path, admitted, c.get("requestId"));
    }
    if (admitted === 0) return next();
    try {
      await next();
    } finally {
      guards.release(admitted);
    }
  };
}
