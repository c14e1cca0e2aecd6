import type { Warning } from "@interlingua/core-types";
import { isTerminalStreamEvent, terminalStreamEvent } from "@interlingua/fmt-responses/tables";
import { WARNINGS_HEADER, warningsHeaders } from "../contract/client-contract.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { OPEN_STATUSES, type StoredEvent } from "../storage/response-store.ts";
import { relayResponse } from "../stream/direct-relay.ts";
import type { Listener, ResponseEvents } from "../stream-log/response-event-log.ts";

// Streaming a background response (`background: true, stream: true`) and resuming it
// (`GET /v1/responses/{id}?stream=true&starting_after=N`), as OpenAI's background mode does. The
// runner records each Responses event it produces, numbered by its own `sequence_number`, in
// `stored_response_events` (stream-log/response-event-log.ts) and keeps them in memory while it
// runs; a follower reads them after its cursor and then the new ones: live from
// the recorder when the response runs on its own instance, else from the database, woken by the
// recorder's flushes (in process, and over Redis pub/sub across instances) or every POLL_MS.

/** How long a follower of another instance's response waits without a signal (ms). */
const POLL_MS = 500;
/** Events read per query. */
const READ_BATCH = 500;
/** A response finished (or whose runner died) without its terminal event: it is said after this. */
const TERMINAL_GRACE_MS = 2_000;

const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  "x-accel-buffering": "no",
};

const frame = (event: StoredEvent, type: string): string =>
  `event: ${type}\ndata: ${event.data}\n\n`;

const typeOf = (data: string): string => {
  try {
    const type = (JSON.parse(data) as { type?: unknown }).type;
    return typeof type === "string" ? type : "message";
  } catch {
    return "message";
  }
};

/**
 * The SSE stream of a background response's events after `after`: those recorded, then the new
 * ones, until its terminal event (or, cancelled or deleted, until the last one recorded). A
 * client that leaves stops only its stream, never the response.
 */
export function followResponse(
  services: GatewayServices,
  events: ResponseEvents,
  id: string,
  userId: string,
  after: number,
  /** Written to the Node response by the front door (no web stream). */
  direct = false,
  /** What reading the request left out, known before the first event (the creating call's). */
  notes: readonly Warning[] = [],
): Response {
  return relayResponse(
    (sink) => {
      const abort = new AbortController();
      const encoder = new TextEncoder();
      let resume: (() => void) | undefined;
      void (async () => {
        try {
          for await (const text of follow(services, events, id, userId, after, abort.signal)) {
            if (abort.signal.aborted) break;
            if (text !== "" && !sink.write(encoder.encode(text))) {
              await new Promise<void>((resolve) => {
                resume = resolve;
              });
              resume = undefined;
            }
          }
        } catch (error) {
          services.log.error({ err: error, responseId: id }, "following a response failed");
        }
        if (!abort.signal.aborted) sink.end();
      })();
      return {
        resume: () => resume?.(),
        // The client left: its stream stops, the response runs on.
        detach: () => {
          abort.abort();
          resume?.();
        },
      };
    },
    { status: 200, headers: { ...SSE_HEADERS, ...warningsHeaders(notes) } },
    direct,
  );
}

async function* follow(
  services: GatewayServices,
  hub: ResponseEvents,
  id: string,
  userId: string,
  after: number,
  abort: AbortSignal,
): AsyncGenerator<string, void, undefined> {
  const store = services.store.responses;
  let cursor = after;
  let gap = false;
  let lastWrite = Date.now();
  /** The frame of `event` if it is new; `ended` once a terminal event went. */
  let ended = false;
  const take = (event: StoredEvent): string | undefined => {
    if (event.seq <= cursor) return undefined;
    const type = typeOf(event.data);
    // A run taken over starts its numbering further on (RERUN_GAP), with response.created.
    if (event.seq !== cursor + 1 && type !== "response.created") gap = true;
    cursor = event.seq;
    if (isTerminalStreamEvent(type)) ended = true;
    lastWrite = Date.now();
    return frame(event, type);
  };
  /** What the stream said it dropped, and a gap in what was kept: one comment at its end. */
  let said: readonly string[] = [];
  const closing = (): string => {
    const entries = new Set(said);
    if (gap) entries.add("stream.events=dropped");
    if (entries.size > 0) return `: ${WARNINGS_HEADER}: ${[...entries].join(",")}\n\n`;
    return "";
  };
  const saidBy = async (): Promise<readonly string[]> => {
    const local = hub.recorder(id);
    if (local !== undefined) return [...local.warnings];
    const text = (await store.get(id, userId, services.now()))?.streamWarnings;
    return text === undefined ? [] : text.split(",");
  };
  const finish = async (): Promise<string> => {
    said = await saidBy();
    return closing();
  };
  const keepAlive = (): string | undefined => {
    if (Date.now() - lastWrite < services.keepAliveMs) return undefined;
    lastWrite = Date.now();
    return ": keep-alive\n\n";
  };

  while (!abort.aborted) {
    const local = hub.recorder(id);
    if (local !== undefined) {
      // Runs here: what earlier runs recorded, what this one kept, then every event as it comes.
      const queue: StoredEvent[] = [];
      let wake: (() => void) | undefined;
      const listener: Listener = (event) => {
        if (event !== undefined) queue.push(event);
        wake?.();
      };
      const stop = () => wake?.();
      local.listeners.add(listener);
      abort.addEventListener("abort", stop);
      try {
        while (cursor + 1 < local.firstSeq && !abort.aborted) {
          const earlier = await store.events(
            id,
            cursor,
            Math.min(READ_BATCH, local.firstSeq - 1 - cursor),
          );
          if (earlier.length === 0) break;
          for (const event of earlier) {
            const text = take(event);
            if (text !== undefined) yield text;
          }
        }
        for (const event of local.kept.slice()) {
          const text = take(event);
          if (text !== undefined) yield text;
          if (ended) break;
        }
        while (!ended && !abort.aborted) {
          const event = queue.shift();
          if (event !== undefined) {
            const text = take(event);
            if (text !== undefined) yield text;
            continue;
          }
          if (local.ended) break;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, Math.max(50, services.keepAliveMs));
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wake = undefined;
          const ping = queue.length === 0 ? keepAlive() : undefined;
          if (ping !== undefined) yield ping;
        }
      } finally {
        local.listeners.delete(listener);
        abort.removeEventListener("abort", stop);
      }
      // What the stream says after its terminal event (its warnings) is the recorder's once it
      // ended, which is at once.
      const until = Date.now() + 1_000;
      while (ended && !local.ended && !abort.aborted && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      if (ended) {
        yield await finish();
        return;
      }
      continue;
    }

    // Runs elsewhere, has not started, or has ended: the database.
    const batch = await store.events(id, cursor, READ_BATCH);
    for (const event of batch) {
      const text = take(event);
      if (text !== undefined) yield text;
      if (ended) break;
    }
    if (ended) {
      yield await finish();
      return;
    }
    if (batch.length === READ_BATCH) continue;
    const row = await store.get(id, userId, services.now());
    if (row === undefined) {
      yield await finish();
      return;
    }
    if (!OPEN_STATUSES.includes(row.status)) {
      // Finished: its terminal event is on its way (the runner writes it last) unless it was
      // cancelled (OpenAI's stream has no such event) or its runner is gone: said from the row.
      if (row.status === "cancelled") {
        const rest = await store.events(id, cursor, READ_BATCH);
        if (rest.length > 0) continue;
        yield await finish();
        return;
      }
      // A client past the terminal event (it read the whole stream) gets nothing more.
      const lastSeq = await store.lastEventSeq(id);
      const [lastEvent] = lastSeq < 0 ? [] : await store.events(id, lastSeq - 1, 1);
      if (lastEvent !== undefined && isTerminalStreamEvent(typeOf(lastEvent.data))) {
        yield await finish();
        return;
      }
      if (services.now() - row.updatedAt > TERMINAL_GRACE_MS && hub.recorder(id) === undefined) {
        const last = terminalStreamEvent(row.body, cursor + 1);
        if (last !== undefined) {
          yield frame({ seq: cursor + 1, data: JSON.stringify(last) }, String(last["type"]));
        }
        yield await finish();
        return;
      }
    }
    await hub.wait(id, POLL_MS, abort);
    const ping = keepAlive();
    if (ping !== undefined) yield ping;
  }
}
