import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a client sent, as the gateway received it (credentials left out). */
export interface Recorded {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  status?: number;
  /** The gateway's `x-interlingua-warnings` on the reply. */
  warnings?: string;
}

/** Headers that carry credentials or vary per run: never written to a fixture. */
const SECRET = /^(authorization|x-api-key|x-goog-api-key|cookie|proxy-authorization)$/i;
const NOISY =
  /^(host|content-length|connection|user-agent|x-stainless-.*|traceparent|session_id|x-client-request-id|x-claude-code-session-id|originator|version)$/i;

/**
 * A loopback proxy in front of the gateway that records every request a client sends, so each
 * client's real requests become fixtures. Bodies are read whole; responses stream through.
 */
export async function startRecordingProxy(
  target: string,
): Promise<{ url: string; take(): Recorded[]; close(): Promise<void> }> {
  const upstream = new URL(target);
  let recorded: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      let body: unknown = raw.toString("utf8");
      try {
        body = raw.length === 0 ? undefined : JSON.parse(raw.toString("utf8"));
      } catch {
        // Kept as text.
      }
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(req.headers)) {
        if (typeof value === "string" && !SECRET.test(key) && !NOISY.test(key))
          headers[key] = value;
      }
      const entry: Recorded = { method: req.method ?? "GET", path: req.url ?? "/", headers, body };
      recorded.push(entry);
      const out = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (reply) => {
          entry.status = reply.statusCode ?? 0;
          const warnings = reply.headers["x-interlingua-warnings"];
          if (typeof warnings === "string") entry.warnings = warnings;
          res.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(res);
        },
      );
      out.on("error", () => {
        res.writeHead(502);
        res.end();
      });
      out.end(raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    take() {
      const out = recorded;
      recorded = [];
      return out;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
