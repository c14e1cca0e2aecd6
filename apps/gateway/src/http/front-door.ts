import type { IncomingMessage, ServerResponse } from "node:http";
import { GatewayError, invalidRequest, type KeyRedactor } from "@interlingua/errors";
import { COUNT_ROUTES, GENERATION_ROUTES } from "../contract/endpoints.ts";
import { newRequestId } from "../contract/request-id.ts";
import { RequestObserver } from "../observe/observe-requests.ts";
import { TextReply } from "../pipeline/respond-json.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { RelayResponse, writeRelay } from "../stream/direct-relay.ts";
import { answerCount } from "./count-handler.ts";
import { answerGeneration, type GenerationCall } from "./generation-handler.ts";
import { IncomingHeaders, readIncomingCapped } from "./incoming-request.ts";
import { parseCountTarget } from "./native-target.ts";
import { redactRelay, redactResponse } from "./redact-outbound.ts";
import type { BodyGuards } from "./request-guards.ts";
import { requestIdHeaders } from "./request-id-headers.ts";
import { answerThrown, envelopeOf, pathErrorResponse } from "./route-envelope.ts";
import { routedPath } from "./routed-path.ts";

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
    const admitted = guards.admit(path, headers, url);
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
