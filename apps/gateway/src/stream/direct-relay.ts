import type { ServerResponse } from "node:http";
import type { Relay, RelaySink } from "./relay.ts";
import { relayReadable } from "./relay-stream.ts";

type StartRelay = (sink: RelaySink) => Relay;

/**
 * Carries its relay so the front door (`writeRelay`) can skip the web stream, the
 * adapter's read loop and its separate header flush. Made `direct`, it has no web stream at all.
 */
export class RelayResponse extends Response {
  readonly #relay: { start: StartRelay; headers: Record<string, string> };

  constructor(
    start: StartRelay,
    init: { status: number; headers: Record<string, string> },
    direct: boolean,
  ) {
    // The web stream starts the relay through this record, so a later filter applies to it too.
    const relay = { start, headers: init.headers };
    super(
      direct ? null : relayReadable((sink) => relay.start(sink)),
      direct ? { status: init.status } : init,
    );
    this.#relay = relay;
  }

  /** The headers the relay was made with (after any filter). */
  get relayHeaders(): Readonly<Record<string, string>> {
    return this.#relay.headers;
  }

  /** Starts the relay into `sink` (through every filter). */
  startRelay(sink: RelaySink): Relay {
    return this.#relay.start(sink);
  }

  /**
   * Puts a filter between the relay and whatever it is written to (web stream or Node response),
   * and rewrites the headers it was made with. Before the response leaves the app.
   */
  filter(wrap: (sink: RelaySink) => RelaySink, header: (value: string) => string): void {
    const relay = this.#relay;
    const start = relay.start;
    relay.start = (sink) => start(wrap(sink));
    relay.headers = Object.fromEntries(
      Object.entries(relay.headers).map(([name, value]) => [name, header(value)]),
    );
  }
}

/** A relayed response (see `RelayResponse`). */
export function relayResponse(
  start: StartRelay,
  init: { status: number; headers: Record<string, string> },
  direct: boolean,
): Response {
  return new RelayResponse(start, init, direct);
}

/**
 * Filters a relayed response (`RelayResponse.filter`); false when `response` is no relay. Called
 * before the response leaves the app (before its body is first read).
 */
export function filterRelay(
  response: Response,
  wrap: (sink: RelaySink) => RelaySink,
  header: (value: string) => string,
): boolean {
  if (!(response instanceof RelayResponse)) return false;
  response.filter(wrap, header);
  return true;
}

/**
 * Writes a `RelayResponse` straight to the Node response: headers and first chunk in one write,
 * no web stream, no adapter read loop.
 */
export function writeRelay(outgoing: ServerResponse, response: RelayResponse): void {
  const headers: Record<string, string> = { ...response.relayHeaders };
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
  const relay = response.startRelay(new NodeSink(outgoing));
  if (socket) process.nextTick(() => socket.uncork());
  if (outgoing.destroyed) {
    relay.detach();
    return;
  }
  outgoing.on("drain", () => relay.resume());
  // `on`, not `once`: close comes once, and a once-wrapper is two more objects per stream.
  outgoing.on("close", () => {
    if (!outgoing.writableFinished) relay.detach();
  });
}

/** The Node response as a relay's sink (a class: one lives as long as each stream). */
class NodeSink implements RelaySink {
  private readonly outgoing: ServerResponse;

  constructor(outgoing: ServerResponse) {
    this.outgoing = outgoing;
  }

  write(bytes: Uint8Array): boolean {
    return this.outgoing.write(bytes);
  }

  end(last?: Uint8Array): void {
    if (last === undefined) this.outgoing.end();
    else this.outgoing.end(last);
  }

  waiting(): boolean {
    return !this.outgoing.writableNeedDrain;
  }
}
