import type { IncomingMessage } from "node:http";
import type { BodyReadResult } from "../contract/read-body.ts";

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
export class IncomingHeaders implements HeaderReader {
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
export function readIncomingCapped(
  incoming: IncomingMessage,
  limit: number,
): Promise<BodyReadResult> {
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
