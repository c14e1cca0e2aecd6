import type { MiddlewareHandler } from "hono";
import type { SimEnv } from "./env.ts";
import { keyFingerprint } from "./hash.ts";
import { summarizeForm } from "./request-body.ts";

/** One request as the simulator received it, for tests to assert what a gateway forwarded. */
export type RecordedRequest = {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Lower-cased names; API key values replaced by `[redacted]`. */
  headers: Record<string, string>;
  /** Parsed JSON, a summary of a multipart form, or the raw text when it was not JSON. */
  body: unknown;
  /** `keyFingerprint(key)` of the API key sent, whichever header or query carried it. */
  keyFingerprint: string | undefined;
  /** Epoch milliseconds. */
  receivedAt: number;
};

const SECRET_HEADERS = new Set(["authorization", "x-api-key", "x-goog-api-key", "api-key"]);
const SECRET_QUERY = "key";

function apiKeyOf(headers: Headers, query: URLSearchParams): string | undefined {
  const bearer = headers.get("authorization")?.replace(/^Bearer\s+/i, "");
  return (
    headers.get("x-api-key") ?? headers.get("x-goog-api-key") ?? query.get(SECRET_QUERY) ?? bearer
  );
}

export function recorder(
  sink: RecordedRequest[],
  max: number,
  now: () => number,
): MiddlewareHandler<SimEnv> {
  return async (c, next) => {
    const url = new URL(c.req.url);
    const headers: Record<string, string> = {};
    for (const [name, value] of c.req.raw.headers) {
      headers[name] = SECRET_HEADERS.has(name) ? "[redacted]" : value;
    }
    const query: Record<string, string> = {};
    for (const [name, value] of url.searchParams) {
      query[name] = name === SECRET_QUERY ? "[redacted]" : value;
    }
    const { json, form, seed, invalidJson } = c.get("body");
    const key = apiKeyOf(c.req.raw.headers, url.searchParams);
    sink.push({
      method: c.req.method,
      path: url.pathname,
      query,
      headers,
      body: form ? summarizeForm(form) : invalidJson ? seed : json,
      keyFingerprint: key ? keyFingerprint(key) : undefined,
      receivedAt: now(),
    });
    if (sink.length > max) sink.splice(0, sink.length - max);
    await next();
  };
}
