import type { Logger } from "pino";

/**
 * A request's log: fixed fields (request id, endpoint, token id) added to each line. Cheaper
 * than a pino child per request, which serialises its bindings up front; a request writes one
 * or two lines, so merging at write time wins.
 */
export interface RequestLog {
  info(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
  with(fields: Record<string, unknown>): RequestLog;
}

export function requestLog(logger: Logger, base: Record<string, unknown>): RequestLog {
  return {
    info: (fields, message) => {
      if (logger.isLevelEnabled("info")) logger.info({ ...base, ...fields }, message);
    },
    error: (fields, message) => logger.error({ ...base, ...fields }, message),
    with: (fields) => requestLog(logger, { ...base, ...fields }),
  };
}
