import type { Context } from "hono";
import type { SimEnv } from "./env.ts";
import { type Fault, FaultSpecError, NO_FAULT } from "./faults.ts";
import type { Frame, Framing } from "./framing.ts";
import type { ErrorDetails, ProtocolErrors } from "./protocol-errors.ts";
import { loadReplay } from "./replay.ts";
import type { Sim } from "./sim.ts";
import { type Connection, streamBody, streamHeaders } from "./stream-body.ts";
import { sleep, waitForAbort } from "./wait.ts";

// The one path every simulated endpoint answers through: faults first, then a recording or the
// endpoint's own answer, then the body-level faults (malformed, reset, paced chunks).

export type Produced =
  | { kind: "json"; body: unknown; status?: number; headers?: Record<string, string> }
  | { kind: "stream"; frames: Frame[]; framing: Framing; headers?: Record<string, string> }
  | {
      kind: "bytes";
      bytes: Uint8Array<ArrayBuffer>;
      contentType: string;
      headers?: Record<string, string>;
    }
  | { kind: "text"; text: string; contentType: string; status?: number }
  | { kind: "error"; status: number; details?: ErrorDetails };

export type Exchange = {
  errors: ProtocolErrors;
  /** `[[fault:...]]` of the request text, if any. */
  faultDirective: string | undefined;
  /** What `times=N` counts per: the conversation, so a retry of the same request matches. */
  faultKey: string;
  replay: string | undefined;
  /** Headers on every successful answer (request ids). */
  headers?: Record<string, string>;
  /** A Gemini cachedContents create: the `cache-create=N` fault applies to it. */
  cacheCreate?: boolean;
  produce: () => Produced | Promise<Produced>;
};

/** Without a fault nothing waits or cuts, so the request's signal (costly to create) is left alone. */
const IDLE: Connection = { signal: new AbortController().signal, socket: undefined };

function connectionOf(c: Context<SimEnv>, fault: Fault): Connection {
  if (fault === NO_FAULT) return IDLE;
  return { signal: c.req.raw.signal, socket: c.env?.incoming?.socket };
}

/** A non-stream answer whose connection dies before the body. */
function resetResponse(connection: Connection): Response {
  if (connection.socket) {
    connection.socket.destroy();
    return new Response(null, { status: 204 });
  }
  const body = new ReadableStream({
    start: (controller) => controller.error(new TypeError("simulated connection reset")),
  });
  return new Response(body, { status: 200 });
}

async function produced(c: Context<SimEnv>, sim: Sim, x: Exchange): Promise<Produced> {
  if (!x.replay) return x.produce();
  const replay = await loadReplay(sim.options.fixturesDir, x.replay, new URL(c.req.url));
  if (replay.kind === "missing") {
    return { kind: "error", status: 400, details: { message: replay.message } };
  }
  if (replay.kind === "body") {
    return {
      kind: "text",
      text: replay.text,
      contentType: "application/json",
      status: replay.status,
    };
  }
  return replay;
}

function whole(
  text: string | Uint8Array<ArrayBuffer>,
  init: { status: number; headers: Record<string, string> },
  fault: Fault,
  connection: Connection,
): Response {
  if (fault.resetAfter !== undefined) return resetResponse(connection);
  const body = fault.malformedAt === undefined ? text : text.slice(0, Math.ceil(text.length / 2));
  return new Response(body, init);
}

export async function respond(c: Context<SimEnv>, sim: Sim, x: Exchange): Promise<Response> {
  let fault: Fault;
  try {
    fault = sim.faults.resolve({
      header: c.req.header("x-sim-fault"),
      directive: x.faultDirective,
      key: x.faultKey,
    });
  } catch (error) {
    if (error instanceof FaultSpecError) return x.errors.response(400, { message: error.message });
    throw error;
  }
  const connection = connectionOf(c, fault);
  if (fault.hang) {
    const clientLeft = await waitForAbort(connection.signal, sim.options.maxDelayMs);
    if (clientLeft) return new Response(null, { status: 499 });
    return x.errors.response(504, { message: "The simulated hang reached its time limit." });
  }
  if (fault.latencyMs > 0) await sleep(fault.latencyMs, connection.signal);
  const status = fault.status ?? (x.cacheCreate === true ? fault.cacheCreateStatus : undefined);
  if (status !== undefined) {
    const details =
      fault.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: fault.retryAfterSeconds };
    return x.errors.response(status, details);
  }

  const answer = await produced(c, sim, x);
  const headers = x.headers ?? {};
  switch (answer.kind) {
    case "error":
      return x.errors.response(answer.status, answer.details);
    case "json":
      return whole(
        JSON.stringify(answer.body),
        {
          status: answer.status ?? 200,
          headers: { "content-type": "application/json", ...headers, ...answer.headers },
        },
        fault,
        connection,
      );
    case "text":
      return whole(
        answer.text,
        {
          status: answer.status ?? 200,
          headers: { "content-type": answer.contentType, ...headers },
        },
        fault,
        connection,
      );
    case "bytes":
      return whole(
        answer.bytes,
        {
          status: 200,
          headers: { "content-type": answer.contentType, ...headers, ...answer.headers },
        },
        fault,
        connection,
      );
    case "stream": {
      const errorFrame = x.errors.streamFrame(x.errors.streamStatus);
      const body = streamBody(answer.frames, answer.framing, fault, errorFrame, connection);
      return new Response(body, {
        status: 200,
        headers: { ...streamHeaders(answer.framing), ...headers, ...answer.headers },
      });
    }
  }
}
