import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { GatewayError, invalidRequest } from "@interlingua/errors";
import { newRequestId } from "../contract/client-contract.ts";
import { requestIdHeaders } from "./request-id-headers.ts";
import { pathErrorResponse } from "./route-envelope.ts";

/** Node's parser and timeout errors, and the answer each gets instead of Node's empty one. */
const ANSWERS: Record<string, () => GatewayError> = {
  HPE_HEADER_OVERFLOW: () =>
    new GatewayError({ status: 431, message: "request header fields too large" }),
  ERR_HTTP_REQUEST_TIMEOUT: () =>
    new GatewayError({ status: 408, message: "the request was not received in full in time" }),
};
const MALFORMED = () => invalidRequest("malformed HTTP request");
const REASONS: Record<number, string> = {
  400: "Bad Request",
  408: "Request Timeout",
  431: "Request Header Fields Too Large",
};

/** The response already begun on this socket, if any (Node keeps it there). */
const responseOf = (socket: Duplex) =>
  (socket as Duplex & { _httpMessage?: ServerResponse & { req?: IncomingMessage } })._httpMessage;

/**
 * Errors Node's HTTP server answers before (or instead of) the app: header fields too large,
 * a request not received within `requestTimeout`, an unparsable request. Node would send a bare
 * status line; this sends the gateway's JSON error envelope (of the request's path when it is
 * known) and closes the connection, as Node does.
 */
export function answerClientErrors(server: Server): void {
  server.on("clientError", (error: Error & { code?: string }, socket: Duplex) => {
    const code = error.code ?? "";
    const response = responseOf(socket);
    if (code === "ECONNRESET" || !socket.writable || response?.headersSent === true) {
      socket.destroy();
      return;
    }
    const answer = (ANSWERS[code] ?? MALFORMED)();
    const path = response?.req?.url === undefined ? "/" : (response.req.url.split("?")[0] ?? "/");
    const requestId = newRequestId();
    const rendered = pathErrorResponse(path, answer, requestId);
    void rendered.text().then((body) => {
      if (socket.destroyed) return;
      const head = [
        `HTTP/1.1 ${answer.status} ${REASONS[answer.status] ?? "Error"}`,
        "content-type: application/json",
        `content-length: ${Buffer.byteLength(body)}`,
        ...requestIdHeaders(path).map((name) => `${name}: ${requestId}`),
        "connection: close",
      ].join("\r\n");
      socket.end(`${head}\r\n\r\n${body}`);
      // A client still sending gets no more time than that to read the answer.
      setTimeout(() => socket.destroy(), 1_000).unref();
    });
  });
}
