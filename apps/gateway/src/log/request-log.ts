import type { Logger } from "pino";
import { writeInfoLine } from "./fields-line.ts";

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
  return new FieldsLog(logger, base);
}

/** A class, not a closure per method: a stream's log lives as long as the stream. */
class FieldsLog implements RequestLog {
  private readonly logger: Logger;
  private readonly base: Record<string, unknown>;

  constructor(logger: Logger, base: Record<string, unknown>) {
    this.logger = logger;
    this.base = base;
  }

  info(fields: Record<string, unknown>, message: string): void {
    if (this.logger.isLevelEnabled("info")) {
      writeInfoLine(this.logger, { ...this.base, ...fields }, message);
    }
  }

  error(fields: Record<string, unknown>, message: string): void {
    this.logger.error({ ...this.base, ...fields }, message);
  }

  with(fields: Record<string, unknown>): RequestLog {
    return new FieldsLog(this.logger, { ...this.base, ...fields });
  }
}
