import { ServerResponse } from "node:http";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import type { Relay, RelaySink } from "./relay.ts";
import { relayReadable } from "./relay-stream.ts";

type StartRelay = (sink: RelaySink) => Relay;

/** A relayed response's start and the headers it was made with. */
interface DirectRelay {
  start: StartRelay;
  headers: Record<string, string>;
}

/** Relayed responses that the Node server may write itself instead of reading their body. */
const DIRECT = new WeakMap<Response, DirectRelay>();

/**
 * Whether a request reached the app on the Node server (its `env` holds the Node response). The
 * gateway's server always wraps the app's fetch in `writeRelaysDirectly`, which then writes a
 * relayed response itself; an app served on Node without that wrapper must not rely on this.
 */
export function writesDirectly(env: unknown): boolean {
  return (
    typeof env === "object" &&
    env !== null &&
    (env as { outgoing?: unknown }).outgoing instanceof ServerResponse
  );
}

/**
 * A streamed response whose relay starts on whichever end asks first: its web-stream body (any
 * fetch-style caller), or `writeRelaysDirectly` on the Node server, which skips the web stream,
 * the adapter's read loop and its separate header flush. When the caller is known to be the Node
 * server (`direct`), no web stream is built at all: the body would never be read.
 */
export function relayResponse(
  start: StartRelay,
  init: { status: number; headers: Record<string, string> },
  direct: boolean,
): Response {
  // Written directly, the response object only carries the relay to `writeRelaysDirectly`: its
  // headers go from `init` straight to the Node response, never through a validated web Headers
  // list (headers set on it later, such as the request id, are still added).
  const relay: DirectRelay = { start, headers: init.headers };
  const response = direct
    ? new Response(null, { status: init.status })
    : new Response(
        relayReadable((sink) => relay.start(sink)),
        init,
      );
  DIRECT.set(response, relay);
  return response;
}

/**
 * Puts a filter between a relayed response and whatever it is written to (web stream or Node
 * response), and rewrites the headers it was made with; false when `response` is no relay.
 * Called before the response leaves the app (before its body is first read).
 */
export function filterRelay(
  response: Response,
  wrap: (sink: RelaySink) => RelaySink,
  header: (value: string) => string,
): boolean {
  const relay = DIRECT.get(response);
  if (relay === undefined) return false;
  const start = relay.start;
  relay.start = (sink) => start(wrap(sink));
  relay.headers = Object.fromEntries(
    Object.entries(relay.headers).map(([name, value]) => [name, header(value)]),
  );
  return true;
}

/**
 * Wraps the app's fetch for `@hono/node-server`: a relayed response is written straight to the
 * Node response (headers and first chunk in one write, each later chunk as it comes, `drain` for
 * backpressure, `close` before the end as the client's disconnect); anything else goes to the
 * adapter as usual.
 */
export function writeRelaysDirectly<Env extends { outgoing?: unknown } | undefined>(
  fetch: (request: Request, env: Env) => Response | Promise<Response>,
): (request: Request, env: Env) => Response | Promise<Response> {
  const route = (response: Response, env: Env) => {
    const relay = DIRECT.get(response);
    const outgoing = env?.outgoing;
    if (relay === undefined || !(outgoing instanceof ServerResponse)) return response;
    writeRelay(outgoing, response, relay);
    return RESPONSE_ALREADY_SENT;
  };
  return (request, env) => {
    const result = fetch(request, env);
    return result instanceof Promise
      ? result.then((response) => route(response, env))
      : route(result, env);
  };
}

function writeRelay(outgoing: ServerResponse, response: Response, direct: DirectRelay): void {
  const headers: Record<string, string> = { ...direct.headers };
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // Everything the relay sends in this tick (headers, the first chunk, what the upstream already
  // delivered, even the end) leaves in one write; nothing waits past the tick. The socket is
  // corked, not the response: a corked response holds its chunks back until uncorked, but its
  // `end` goes straight through, ahead of them.
  const socket = outgoing.socket;
  socket?.cork();
  outgoing.writeHead(response.status, headers);
  const relay = direct.start({
    write: (bytes) => outgoing.write(bytes),
    end: (last) => void (last === undefined ? outgoing.end() : outgoing.end(last)),
    waiting: () => !outgoing.writableNeedDrain,
  });
  if (socket) process.nextTick(() => socket.uncork());
  if (outgoing.destroyed) {
    relay.detach();
    return;
  }
  outgoing.on("drain", () => relay.resume());
  outgoing.once("close", () => {
    if (!outgoing.writableFinished) relay.detach();
  });
}
