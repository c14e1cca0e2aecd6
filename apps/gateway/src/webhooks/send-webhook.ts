import type { LookupFunction } from "node:net";
import type { DeliveryAttempt } from "@interlingua/tasks";
import { Agent, request } from "undici";
import { withTraceHeaders } from "../log/trace-context.ts";
import type { ResolvedAddress } from "./resolve-target.ts";

// One POST of a push to a vetted target. The connection goes to the address resolve-target
// checked (the lookup is pinned), so a DNS answer that changes between the check and the
// connect cannot aim it elsewhere. Redirects are not followed: a 3xx is the final answer.

/** What is read of a receiver's reply before it is dropped: the status is all that counts. */
export const MAX_REPLY_BYTES = 64 * 1024;

export interface SendRequest {
  readonly url: URL;
  /** The vetted addresses of the URL's host: the only ones connected to. */
  readonly addresses: readonly [ResolvedAddress, ...ResolvedAddress[]];
  readonly headers: Record<string, string>;
  readonly body: string;
  /** Aborts the attempt (the receiver timeout). */
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
}

/**
 * A lookup that answers every name with the vetted addresses only (all of them when asked for
 * all, so Node's happy-eyeballs can still fall back between IPv6 and IPv4 among them).
 */
function pinnedLookup(addresses: readonly [ResolvedAddress, ...ResolvedAddress[]]): LookupFunction {
  const [first] = addresses;
  return (_hostname, options, callback) => {
    if (options.all === true) callback(null, [...addresses]);
    else callback(null, first.address, first.family);
  };
}

/** Reads at most MAX_REPLY_BYTES of the reply and drops it; its errors do not matter. */
async function discardReply(body: AsyncIterable<Buffer>): Promise<void> {
  let read = 0;
  try {
    for await (const chunk of body) {
      read += chunk.length;
      if (read >= MAX_REPLY_BYTES) break;
    }
  } catch {
    // The status already decided the attempt.
  }
}

export async function sendWebhook(send: SendRequest): Promise<DeliveryAttempt> {
  // One agent per attempt: its lookup is pinned to this target, and nothing is pooled.
  const agent = new Agent({
    connect: { lookup: pinnedLookup(send.addresses), timeout: send.timeoutMs },
    headersTimeout: send.timeoutMs,
    bodyTimeout: send.timeoutMs,
    pipelining: 0,
  });
  try {
    const reply = await request(send.url, {
      method: "POST",
      headers: withTraceHeaders(send.headers),
      body: send.body,
      dispatcher: agent,
      signal: send.signal,
    });
    await discardReply(reply.body);
    return { status: reply.statusCode };
  } catch (error) {
    if (send.signal.aborted || isTimeout(error)) return { timeout: true };
    return { networkError: describe(error) };
  } finally {
    await agent.destroy().catch(() => undefined);
  }
}

const TIMEOUT_CODES = new Set([
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

const isTimeout = (error: unknown) =>
  TIMEOUT_CODES.has(String((error as { code?: unknown } | undefined)?.code));

function describe(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown; cause?: { code?: unknown } };
  const code = e.cause?.code ?? e.code;
  return [code, e.message].filter((part) => typeof part === "string" && part !== "").join(": ");
}
