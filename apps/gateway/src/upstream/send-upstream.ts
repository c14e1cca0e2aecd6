import type { Agent, Dispatcher } from "undici";
import type { PreparedUpstreamRequest } from "./prepare-upstream-request.ts";
import { failureFromError, type UpstreamFailure } from "./upstream-failure.ts";

/** The most of an upstream error body the gateway reads: enough for any real error object. */
const ERROR_BODY_LIMIT = 64 * 1024;

export type UpstreamBody = Dispatcher.ResponseData["body"];

export type UpstreamReply =
  | { ok: true; status: number; body: UpstreamBody }
  | { ok: false; failure: UpstreamFailure };

/**
 * Sends one request over the pooled agent. A 2xx comes back as an open body stream; anything else
 * is read (bounded) into a failure so the caller can decide whether another channel should try.
 */
export async function sendUpstream(
  agent: Agent,
  prepared: PreparedUpstreamRequest,
): Promise<UpstreamReply> {
  let response: Awaited<ReturnType<Agent["request"]>>;
  try {
    response = await agent.request({
      origin: prepared.origin,
      path: prepared.path,
      method: "POST",
      headers: prepared.headers,
      body: prepared.body,
    });
  } catch (error) {
    return { ok: false, failure: failureFromError(error) };
  }
  if (response.statusCode >= 200 && response.statusCode < 300) {
    return { ok: true, status: response.statusCode, body: response.body };
  }
  let text = "";
  try {
    for await (const chunk of response.body) {
      text += chunk.toString();
      if (text.length > ERROR_BODY_LIMIT) {
        response.body.destroy();
        break;
      }
    }
  } catch {
    // A reset while reading an error body still leaves the status to report.
  }
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's HTML page): the parser of upstream errors takes the text.
  }
  const retryAfter = response.headers["retry-after"];
  return {
    ok: false,
    failure: {
      kind: "status",
      status: response.statusCode,
      body,
      ...(typeof retryAfter === "string" ? { retryAfter } : {}),
    },
  };
}

/** Reads a whole 2xx body as text; a reset or timeout mid-body is a failure like any other. */
export async function readAllText(
  body: UpstreamBody,
): Promise<{ ok: true; text: string } | { ok: false; failure: UpstreamFailure }> {
  try {
    return { ok: true, text: await body.text() };
  } catch (error) {
    return { ok: false, failure: failureFromError(error) };
  }
}
