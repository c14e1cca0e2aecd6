import type { Agent, Dispatcher } from "undici";
import type { Channel } from "../routing/channel.ts";
import { requestChannel, requestForeignUrl } from "../upstream/call-channel.ts";
import { discardBody } from "../upstream/discard-body.ts";
import { readCappedBytes } from "../upstream/read-capped.ts";

// The runner's upstream calls: one JSON request to a channel, or one bounded download. Unlike the
// request path there is no client waiting and no stream: a reply is read whole (bounded), and a
// failure says whether trying again later may help.

/** The most of a JSON reply (an operation, an image response with base64 data) read. */
const JSON_LIMIT = 64 * 1024 * 1024;
/** The most upstream error text kept on a task (the API reference: the message is the caller's to read). */
export const ERROR_TEXT_LIMIT = 500;
const MAX_REDIRECTS = 3;

export type CallResult<T> =
  | { readonly ok: true; readonly value: T }
  | {
      readonly ok: false;
      /** Network trouble, 429 or 5xx: the same call may succeed later. */
      readonly transient: boolean;
      readonly status?: number;
      /** The upstream's error code (`error.code` or `error.status`), when it gave one. */
      readonly code?: string;
      /** The upstream's own words, bounded, with nothing that looks like a key. */
      readonly message: string;
    };

const transientStatus = (status: number) => status === 408 || status === 429 || status >= 500;

export const bounded = (text: string, limit = ERROR_TEXT_LIMIT): string =>
  text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;

/** The code of a provider error body: OpenAI's `error.code`, Gemini's `error.status`. */
function errorCode(text: string): { code?: string } {
  try {
    const json = JSON.parse(text) as { error?: { code?: unknown; status?: unknown } };
    const code = json.error?.code ?? json.error?.status;
    return typeof code === "string" ? { code: bounded(code, 64) } : {};
  } catch {
    return {};
  }
}

/** The message inside a provider error body (`{error: {message}}` on all three), else the text. */
function errorText(text: string, key: string): string {
  let message = text;
  try {
    const json = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof json.error?.message === "string") message = json.error.message;
  } catch {
    // Not JSON: the text itself.
  }
  return bounded(key === "" ? message : message.split(key).join("[redacted]")).trim();
}

export interface CallSpec {
  readonly method: "GET" | "POST";
  /** Under the channel's base URL, e.g. `/v1beta/models/m:predictLongRunning`. */
  readonly path: string;
  readonly body?: unknown;
}

/** One JSON call to a channel with its key in the protocol's header. */
export async function callJson(
  agent: Agent,
  channel: Channel,
  spec: CallSpec,
): Promise<CallResult<unknown>> {
  const headers: Record<string, string> = {
    accept: "application/json",
    ...(spec.body === undefined ? {} : { "content-type": "application/json" }),
  };
  let response: Dispatcher.ResponseData;
  try {
    response = await requestChannel(agent, channel, {
      method: spec.method,
      path: spec.path,
      headers,
      ...(spec.body === undefined ? {} : { body: JSON.stringify(spec.body) }),
    });
  } catch (error) {
    return { ok: false, transient: true, message: bounded(String((error as Error).message)) };
  }
  let bytes: Buffer | undefined;
  try {
    bytes = await readCappedBytes(response.body, JSON_LIMIT);
  } catch (error) {
    return { ok: false, transient: true, message: bounded(String((error as Error).message)) };
  }
  const text = bytes?.toString("utf8") ?? "";
  if (response.statusCode < 200 || response.statusCode >= 300) {
    return {
      ok: false,
      transient: transientStatus(response.statusCode),
      status: response.statusCode,
      ...errorCode(text),
      message: errorText(text, channel.apiKey) || `upstream answered ${response.statusCode}`,
    };
  }
  if (bytes === undefined) {
    return { ok: false, transient: false, message: "upstream reply too large" };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, transient: true, message: "upstream reply is not JSON" };
  }
}

export interface Downloaded {
  readonly bytes: Buffer;
  readonly contentType: string | undefined;
}

/** An open download: its body still to be read (streamed into the file store). */
export interface OpenDownload {
  readonly body: AsyncIterable<Uint8Array> & { destroy(): unknown };
  readonly contentType: string | undefined;
}

/**
 * Opens a result the upstream made (a Veo video URI, an image URL), sending the channel's key
 * only to the channel's own origin; a non-2xx answer is read (bounded) into a failure.
 */
export async function openDownload(
  agent: Agent,
  url: string,
  channel?: Channel,
): Promise<CallResult<OpenDownload>> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { ok: false, transient: false, message: "result URL is not a URL" };
  }
  let response: Dispatcher.ResponseData;
  // Gemini's file download answers with a redirect to storage; the key goes to its origin only.
  for (let hop = 0; ; hop++) {
    const own = channel !== undefined && target.origin === channel.origin;
    try {
      response = await (own
        ? requestChannel(agent, channel, {
            method: "GET",
            path: target.pathname + target.search,
            fromOrigin: true,
          })
        : requestForeignUrl(agent, target));
    } catch (error) {
      return { ok: false, transient: true, message: bounded(String((error as Error).message)) };
    }
    const location = response.headers["location"];
    if (response.statusCode < 300 || response.statusCode >= 400 || typeof location !== "string") {
      break;
    }
    discardBody(response.body);
    if (hop >= MAX_REDIRECTS) return { ok: false, transient: false, message: "too many redirects" };
    target = new URL(location, target);
    if (target.protocol !== "http:" && target.protocol !== "https:") {
      return { ok: false, transient: false, message: "result redirected off http(s)" };
    }
  }
  if (response.statusCode < 200 || response.statusCode >= 300) {
    const text = (await readCappedBytes(response.body, 64 * 1024).catch(() => undefined)) ?? "";
    return {
      ok: false,
      transient: transientStatus(response.statusCode),
      status: response.statusCode,
      message:
        errorText(text.toString(), channel?.apiKey ?? "") ||
        `download answered ${response.statusCode}`,
    };
  }
  const type = response.headers["content-type"];
  return {
    ok: true,
    value: {
      body: response.body,
      contentType: typeof type === "string" ? type.split(";")[0]?.trim() : undefined,
    },
  };
}

/** A whole download in memory, at most `limit` bytes (image URLs: small). */
export async function download(
  agent: Agent,
  url: string,
  limit: number,
  channel?: Channel,
): Promise<CallResult<Downloaded>> {
  const opened = await openDownload(agent, url, channel);
  if (!opened.ok) return opened;
  let bytes: Buffer | undefined;
  try {
    bytes = await readCappedBytes(opened.value.body, limit);
  } catch (error) {
    return { ok: false, transient: true, message: bounded(String((error as Error).message)) };
  }
  if (bytes === undefined) return { ok: false, transient: false, message: "result too large" };
  return { ok: true, value: { bytes, contentType: opened.value.contentType } };
}
