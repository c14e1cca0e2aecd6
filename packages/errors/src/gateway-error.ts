import type { GatewayErrorFields, UpstreamDiagnostics } from "./gateway-error-schema.js";
import { isErrorStatus } from "./gateway-status.js";
import { standardErrorTypeFor } from "./standard-error-type.js";

export type { GatewayErrorFields, UpstreamDiagnostics } from "./gateway-error-schema.js";

export type GatewayErrorInit = Omit<GatewayErrorFields, "status" | "type"> & {
  status: number;
  /** Defaults to the standard type of `status`. */
  type?: string;
  upstream?: UpstreamDiagnostics;
  cause?: unknown;
};

// A registry symbol, not a private one: the ESM and CJS builds are two classes, and a
// GatewayError thrown by one must still be recognised by the other.
const brand = Symbol.for("@interlingua/errors.GatewayError");

export class GatewayError extends Error {
  override readonly name = "GatewayError";
  readonly status: number;
  readonly type: string;
  readonly code: string | undefined;
  readonly param: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly upstream: UpstreamDiagnostics | undefined;
  readonly [brand] = true;

  constructor(init: GatewayErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    // A GatewayError always becomes an error response; a status outside 4xx/5xx is a bug upstream
    // of here, and answering 500 beats throwing from an error constructor.
    this.status = isErrorStatus(init.status) ? init.status : 500;
    this.type = init.type || standardErrorTypeFor(this.status);
    this.code = init.code;
    this.param = init.param;
    this.retryAfterSeconds =
      init.retryAfterSeconds !== undefined &&
      Number.isFinite(init.retryAfterSeconds) &&
      init.retryAfterSeconds >= 0
        ? init.retryAfterSeconds
        : undefined;
    this.upstream = init.upstream;
  }

  /** The public fields only: no stack, no cause, no upstream body. */
  toJSON(): GatewayErrorFields {
    return {
      status: this.status,
      type: this.type,
      message: this.message,
      ...(this.code === undefined ? {} : { code: this.code }),
      ...(this.param === undefined ? {} : { param: this.param }),
      ...(this.retryAfterSeconds === undefined
        ? {}
        : { retryAfterSeconds: this.retryAfterSeconds }),
    };
  }
}

export const isGatewayError = (value: unknown): value is GatewayError =>
  value instanceof GatewayError ||
  (typeof value === "object" && value !== null && (value as { [brand]?: unknown })[brand] === true);
