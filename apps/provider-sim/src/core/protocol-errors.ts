import type { Frame } from "./framing.ts";

export type ErrorDetails = {
  message?: string;
  retryAfterSeconds?: number;
  /** Extra fields some errors carry (Gemini ErrorInfo, OpenAI `code`). */
  reason?: string;
  /** OpenAI: the error `type` when it is not the status's usual one, and the `param` at fault. */
  type?: string;
  param?: string;
};

/** How one protocol reports failures: as an HTTP answer, or as an event inside a started stream. */
export type ProtocolErrors = {
  response(status: number, details?: ErrorDetails): Response;
  streamFrame(status: number): Frame;
  /** The status of the in-stream error a fault sends when none is given. */
  streamStatus: number;
};

/** Rate limits always say when to come back; other statuses only when the fault asks. */
export function retryAfter(status: number, details: ErrorDetails): number | undefined {
  return details.retryAfterSeconds ?? (status === 429 ? 1 : undefined);
}

export function json(
  body: unknown,
  status: number,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}
