import type { GatewayError } from "@interlingua/errors";
import { loggableUrl } from "./logger.ts";
import type { RequestLog } from "./request-log.ts";

/** The one line a refused request leaves; a 5xx keeps its cause, which the client never sees. */
export function logRefused(log: RequestLog, url: URL, error: GatewayError): void {
  log.info(
    {
      path: loggableUrl(url),
      status: error.status,
      error: error.message,
      ...(error.status >= 500 ? { err: error.cause } : {}),
    },
    "request refused",
  );
}
