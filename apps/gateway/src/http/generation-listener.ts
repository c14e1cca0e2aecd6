import type { IncomingMessage, ServerResponse } from "node:http";
import { GatewayError, type KeyRedactor, toGatewayError } from "@interlingua/errors";
import { GENERATION_ROUTES } from "../contract/endpoints.ts";
import { errorResponse } from "../contract/error-response.ts";
import { newRequestId, REQUEST_ID_HEADER } from "../contract/request-id.ts";
import { RequestObserver } from "../observe/observe-requests.ts";
import { TextReply } from "../pipeline/respond-json.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { RelayResponse, writeRelaysDirectly } from "../stream/direct-relay.ts";
import { answerGeneration, type GenerationCall } from "./generation-handler.ts";
import { hasRepeatedHeaders, IncomingHeaders, readIncomingCapped } from "./incoming-request.ts";
import { redactRelay, redactResponse } from "./redact-outbound.ts";
import type { BodyGuards } from "./request-guards.ts";
import { pathErrorResponse } from "./route-envelope.ts";

type Listener = (incoming: IncomingMessage, outgoing: ServerResponse) => void;
type Answer = (call: GenerationCall) => Promise<Response | TextReply>;

interface Route {
  /** The route's pattern, as Hono names it (the metrics label). */
  readonly pattern: string;
  readonly answer: Answer;
}

const TARGET = ":target";
/**
 * A native `{model}:{method}` segment the URL parser and Hono read the same as Node does: no
 * percent-escape to decode, nothing the parser would escape. Anything else goes through Hono.
 */
const PLAIN_SEGMENT = /^[\w.~:@!$&'()*+,;=-]+$/;
/** A Host header Hono's adapter takes as it is (it refuses or rewrites others). */
const PLAIN_HOST = /^(?:[\w.-]+|\[[\d.:a-fA-F]+\])(?::\d{1,5})?$/;

/** What Hono's adapter gives a body with no Content-Type of its own. */
const DEFAULT_CONTENT_TYPE = "text/plain; charset=UTF-8";
const CLIENT_GONE = "Client connection prematurely closed.";

/**
 * The generation routes on `node:http` directly, ahead of the Hono app: the same steps as the
 * app's middleware and route (observation, request id, body guards, the shared
 * `answerGeneration`, outbound redaction) without the adapter's web Request and Response
 * objects; a JSON reply is written as the text it was made as, a stream as its relay. Every other
 * request, and a generation request with anything unusual about its target (an absolute URL, a
 * percent-escape, repeated headers), goes to `fallback`, the Hono app. `guards` are the app's
 * own, so a body counts in flight once whichever entrance it took.
 */
export function generationListener(
  services: GatewayServices,
  guards: BodyGuards,
  fallback: Listener,
): Listener {
  const exact = new Map<string, Route>();
  const prefixed: (readonly [string, Route])[] = [];
  for (const { path, endpoint } of GENERATION_ROUTES) {
    const route = { pattern: path, answer: answerGeneration(services, endpoint) };
    if (path.endsWith(`/${TARGET}`)) prefixed.push([path.slice(0, -TARGET.length), route]);
    else exact.set(path, route);
  }
  const match = (path: string): { route: Route; target: string | undefined } | undefined => {
    const route = exact.get(path);
    if (route !== undefined) return { route, target: undefined };
    for (const [prefix, native] of prefixed) {
      if (!path.startsWith(prefix)) continue;
      const target = path.slice(prefix.length);
      return PLAIN_SEGMENT.test(target) ? { route: native, target } : undefined;
    }
    return undefined;
  };
  const { metrics, config, redactor } = services;
  const observer =
    metrics !== undefined || config.tracing.enabled
      ? new RequestObserver(metrics, config.tracing.enabled)
      : undefined;
  const served: Served = { services, observer, guards, redactor };

  return (incoming, outgoing) => {
    const url = incoming.url ?? "";
    const host = incoming.headers.host;
    if (incoming.method !== "POST" || url[0] !== "/" || host === undefined) {
      return fallback(incoming, outgoing);
    }
    const query = url.indexOf("?");
    const path = query === -1 ? url : url.slice(0, query);
    const found = match(path);
    if (found === undefined || !PLAIN_HOST.test(host) || hasRepeatedHeaders(incoming)) {
      return fallback(incoming, outgoing);
    }
    serveGeneration(served, incoming, outgoing, path, found.route, found.target, host).catch(
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

async function serveGeneration(
  served: Served,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  path: string,
  route: Route,
  target: string | undefined,
  host: string,
): Promise<void> {
  const { services, observer, guards } = served;
  const observation =
    observer === undefined
      ? undefined
      : { observer, observed: observer.start("POST", path, incoming.headers) };
  const requestId = newRequestId();
  const headers = new IncomingHeaders(incoming.headers);
  // The client leaving before its reply was written cancels what is under way.
  const abort = new AbortController();
  outgoing.once("close", () => {
    if (incoming.errored) abort.abort(incoming.errored.toString());
    else if (!outgoing.writableFinished) abort.abort(CLIENT_GONE);
  });
  const handle = async (): Promise<Response | TextReply> => {
    const admitted = guards.admit(path, headers);
    if (admitted instanceof GatewayError) return pathErrorResponse(path, admitted, requestId);
    try {
      return await route.answer({
        requestId,
        url: new URL(incoming.url ?? path, `http://${host}`),
        target,
        // Only `get` is read of a call's headers.
        headers: headers as unknown as Headers,
        readBody: (limit) => readIncomingCapped(incoming, limit),
        signal: abort.signal,
        writesDirectly: true,
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
  } catch (error) {
    services.log.error({ requestId, err: error }, "unhandled error");
    reply = errorResponse("standard", toGatewayError(error), requestId);
  }
  if (observation !== undefined) {
    const stream = reply instanceof RelayResponse;
    const { observer: seen, observed } = observation;
    seen.end(observed, "POST", route.pattern, reply.status, stream, requestId);
  }
  await writeReply(outgoing, reply, requestId, served.redactor);
}

/** Writes a RelayResponse to the Node response (and says so), or hands the response back. */
const writeIfRelay = writeRelaysDirectly(
  (_request: unknown, env: { outgoing: ServerResponse; response: Response }) => env.response,
);

async function writeReply(
  outgoing: ServerResponse,
  reply: Response | TextReply,
  requestId: string,
  redactor: KeyRedactor,
): Promise<void> {
  if (reply instanceof TextReply) {
    const headers: Record<string, string | number> = { ...reply.headers };
    if (redactor.active)
      for (const name in headers) headers[name] = redactor.redact(String(headers[name]));
    headers[REQUEST_ID_HEADER] = requestId;
    headers["content-length"] = Buffer.byteLength(reply.text);
    outgoing.writeHead(reply.status, headers);
    outgoing.end(reply.text);
    return;
  }
  if (reply instanceof RelayResponse) {
    if (redactor.active) redactRelay(reply, redactor);
    reply.headers.set(REQUEST_ID_HEADER, requestId);
    // No web Request: the wrapped fetch reads only the response it is handed.
    writeIfRelay(undefined as unknown as Request, { outgoing, response: reply });
    return;
  }
  const response = redactor.active ? await redactResponse(reply, redactor) : reply;
  const headers: Record<string, string | number> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  headers[REQUEST_ID_HEADER] = requestId;
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
