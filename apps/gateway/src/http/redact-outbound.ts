import type { KeyRedactor } from "@interlingua/errors";
import type { MiddlewareHandler } from "hono";
import { filterRelay } from "../stream/direct-relay.ts";
import { byteRedactor, redactingSink } from "../stream/redacting-sink.ts";

/** Bodies read as text: JSON (whole) and any text/* (streamed). Binary bodies pass as they are. */
const isJson = (type: string) => /\bjson\b/i.test(type);
const isText = (type: string) => /^text\//i.test(type);

/** A copy of the headers with the keys redacted, or undefined when none carried one. */
function redactedHeaders(headers: Headers, redactor: KeyRedactor): Headers | undefined {
  let copy: Headers | undefined;
  headers.forEach((value, name) => {
    const clean = redactor.redact(value);
    if (clean === value) return;
    copy ??= new Headers(headers);
    copy.set(name, clean);
  });
  return copy;
}

function redactingTransform(redactor: KeyRedactor): TransformStream<Uint8Array, Uint8Array> {
  const redact = byteRedactor(redactor);
  return new TransformStream({
    transform(chunk, controller) {
      const out = redact.push(chunk);
      if (out.length > 0) controller.enqueue(out);
    },
    flush(controller) {
      const out = redact.end();
      if (out.length > 0) controller.enqueue(out);
    },
  });
}

/** Redacts a relayed response (its stream, as it goes, and its headers); false for no relay. */
export function redactRelay(res: Response, redactor: KeyRedactor): boolean {
  if (!filterRelay(res, (sink) => redactingSink(sink, redactor), redactor.redact)) return false;
  // Its own (mutable) web headers too: a relay read as a web stream is sent with those.
  redactedHeaders(res.headers, redactor)?.forEach((value, name) => {
    res.headers.set(name, value);
  });
  return true;
}

/**
 * `res` with the keys redacted from its headers and text body (JSON read whole, text/* as it
 * streams); `res` itself when it has nothing to redact. Not for relays (`redactRelay`).
 */
export async function redactResponse(res: Response, redactor: KeyRedactor): Promise<Response> {
  const cleanHeaders = redactedHeaders(res.headers, redactor);
  const type = res.headers.get("content-type") ?? "";
  const textual = res.body !== null && (isJson(type) || isText(type));
  if (!textual && cleanHeaders === undefined) return res;
  const headers = cleanHeaders ?? new Headers(res.headers);
  const init = { status: res.status, statusText: res.statusText, headers };
  let body: BodyInit | null = res.body;
  if (textual && isJson(type) && !isText(type)) {
    const text = await res.text();
    body = redactor.redact(text);
    if (body !== text) headers.delete("content-length");
  } else if (textual && res.body !== null) {
    headers.delete("content-length");
    body = res.body.pipeThrough(redactingTransform(redactor));
  }
  return new Response(body, init);
}

/**
 * The last filter before anything leaves the gateway: the configured upstream keys (and any
 * 8-character slice of one) are redacted from every response's headers and text body: error
 * bodies quoting an upstream's message, relayed streams (the same-format fast path too, see
 * `filterRelay`), anything a handler let through. The front door (`front-door.ts`) applies
 * the same two functions to the generation endpoints.
 */
export function redactOutbound(redactor: KeyRedactor): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (!redactor.active) return;
    const res = c.res;
    if (redactRelay(res, redactor)) return;
    const clean = await redactResponse(res, redactor);
    if (clean === res) return;
    // Cleared first: Hono would otherwise copy the old response's headers onto the new one.
    c.res = undefined;
    c.res = clean;
  };
}
