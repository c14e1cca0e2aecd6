import type { Socket } from "node:net";
import type { Fault } from "./faults.ts";
import type { Frame, Framing } from "./framing.ts";
import { sleep } from "./wait.ts";

export type Connection = {
  signal: AbortSignal;
  /** The Node socket, when served over HTTP; absent when the app is called via `app.fetch`. */
  socket: Socket | undefined;
};

const encoder = new TextEncoder();

/** Cuts a frame's JSON in half: what a client sees when a provider emits a broken chunk. */
function malformed(frame: Frame): Frame {
  return { ...frame, data: frame.data.slice(0, Math.ceil(frame.data.length / 2)) };
}

function encodeAll(frames: Frame[], framing: Framing, fault: Fault, errorFrame: Frame): string[] {
  let list = frames;
  if (fault.errorAfter !== undefined && fault.errorAfter < frames.length) {
    list = [...frames.slice(0, fault.errorAfter), errorFrame];
  }
  const pieces = list.map((frame, index) =>
    framing.encode(index === fault.malformedAt ? malformed(frame) : frame, index),
  );
  const end = framing.end(list.length);
  if (end) pieces.push(end);
  return pieces;
}

/**
 * Destroys the connection once what was written so far has left the socket, so the client
 * receives a truncated stream; in-process there is no socket, so the body stream errors instead.
 */
async function reset(
  connection: Connection,
  controller: ReadableStreamDefaultController<Uint8Array>,
) {
  const socket = connection.socket;
  if (!socket) {
    controller.error(new TypeError("simulated connection reset"));
    return;
  }
  for (let i = 0; i < 100 && socket.writableLength > 0 && !socket.destroyed; i++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  socket.destroy();
}

/** Headers every simulated stream carries; chunked also stops the Node adapter from buffering. */
export function streamHeaders(framing: Framing): Record<string, string> {
  return {
    "content-type": framing.contentType,
    "cache-control": "no-cache",
    "transfer-encoding": "chunked",
  };
}

export function streamBody(
  frames: Frame[],
  framing: Framing,
  fault: Fault,
  errorFrame: Frame,
  connection: Connection,
): ReadableStream<Uint8Array> {
  const pieces = encodeAll(frames, framing, fault, errorFrame);
  const paced = fault.chunkDelayMs > 0 || fault.resetAfter !== undefined;
  if (!paced) {
    // Fast path: each frame is still its own chunk, but there is nothing to wait for.
    return new ReadableStream({
      start(controller) {
        for (const piece of pieces) controller.enqueue(encoder.encode(piece));
        controller.close();
      },
    });
  }
  let next = 0;
  let cut = false;
  return new ReadableStream(
    {
      async pull(controller) {
        if (cut) return;
        if (fault.resetAfter !== undefined && next >= fault.resetAfter) {
          cut = true;
          await reset(connection, controller);
          return;
        }
        if (next > 0 && next < pieces.length - fault.promptTail) {
          await sleep(fault.chunkDelayMs, connection.signal);
        }
        const piece = pieces[next++];
        if (piece === undefined) controller.close();
        else controller.enqueue(encoder.encode(piece));
      },
    },
    // Pull only when the server asks for the next chunk: by then the previous one was written.
    { highWaterMark: 0 },
  );
}
