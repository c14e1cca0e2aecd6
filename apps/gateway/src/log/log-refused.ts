import type { GatewayError } from "@interlingua/errors";
import { loggableUrl } from "./logger.ts";
import type { RequestLog } from "./request-log.ts";

/**
 * The one line a refused request leaves: at info for the client's own doing (4xx), at error for a
 * 5xx (an outage, an open breaker), which keeps its cause, never shown to the client.
 */
export function logRefused(log: RequestLog, url: URL, error: GatewayError): void {
  const fields = { path: loggableUrl(url), status: error.status, error: error.message };
  if (error.status < 500) log.info(fields, "request refused");
  else log.error({ ...fields, err: error.cause }, "request refused");
}
