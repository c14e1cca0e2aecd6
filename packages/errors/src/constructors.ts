import { defaultMessages } from "./default-message.js";
import { GatewayError, type GatewayErrorInit } from "./gateway-error.js";
import type { GatewayStatus } from "./gateway-status.js";
import { standardErrorTypes } from "./standard-error-type.js";

/** Everything a constructor call may add beyond the row's status, type and message. */
export type GatewayErrorExtras = Omit<GatewayErrorInit, "status" | "type" | "message">;

const row =
  (status: GatewayStatus) =>
  (message: string = defaultMessages[status], extras: GatewayErrorExtras = {}) =>
    new GatewayError({ ...extras, status, type: standardErrorTypes[status], message });

/** 400 invalid_request_error; `param` names the offending field. */
export const invalidRequest = (
  message: string = defaultMessages[400],
  param?: string,
  extras: GatewayErrorExtras = {},
) => row(400)(message, param === undefined ? extras : { ...extras, param });
/** 401 authentication_error */
export const unauthenticated = /* @__PURE__ */ row(401);
/** 402 payment_required */
export const paymentRequired = /* @__PURE__ */ row(402);
/** 403 permission_error */
export const permissionDenied = /* @__PURE__ */ row(403);
/** 404 not_found_error */
export const notFound = /* @__PURE__ */ row(404);
/** The most of a client's model id an error quotes: the body cap is the only bound on one. */
const MODEL_ECHO_CHARS = 256;

const quoted = (model: string) =>
  model.length <= MODEL_ECHO_CHARS ? model : `${model.slice(0, MODEL_ECHO_CHARS)}…`;

/** 404 not_found_error with code `model_not_found`, as the messages endpoint reports it. */
export const modelNotFound = (model: string, extras: GatewayErrorExtras = {}) =>
  row(404)(`The model \`${quoted(model)}\` does not exist or you do not have access to it.`, {
    ...extras,
    code: "model_not_found",
    param: "model",
  });
/** 413 invalid_request_error */
export const payloadTooLarge = /* @__PURE__ */ row(413);
/** 429 rate_limit_error */
export const rateLimited = /* @__PURE__ */ row(429);
/** 500 server_error */
export const internalError = /* @__PURE__ */ row(500);
/** 502 bad_gateway */
export const badGateway = /* @__PURE__ */ row(502);
/** 503 service_unavailable */
export const unavailable = /* @__PURE__ */ row(503);

/** The constructor of each row, for code that picks the row by status. */
export const constructorsByStatus = {
  400: /* @__PURE__ */ row(400),
  401: unauthenticated,
  402: paymentRequired,
  403: permissionDenied,
  404: notFound,
  413: payloadTooLarge,
  429: rateLimited,
  500: internalError,
  502: badGateway,
  503: unavailable,
} as const satisfies Record<
  GatewayStatus,
  (message?: string, extras?: GatewayErrorExtras) => GatewayError
>;
