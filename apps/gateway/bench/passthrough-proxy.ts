import { createServer, type IncomingHttpHeaders } from "node:http";
import { Agent } from "undici";
import { listenLocal } from "./listen-local.ts";

/**
 * The floor the gateway is measured against: an HTTP proxy that forwards every request to one
 * upstream over a pooled undici agent and pipes the reply back, with no auth, parsing or
 * conversion. A gateway at 1.0x of this costs nothing beyond moving the bytes.
 */
export async function startPassthroughProxy(
  upstream: string,
): Promise<{ url: string; close(): Promise<void> }> {
  // No cap on connections: a floor that queued calls would hide what a held stream costs.
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: null });
  const origin = new URL(upstream).origin;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers: IncomingHttpHeaders = { ...req.headers };
    delete headers.host;
    delete headers.connection;
    try {
      const reply = await agent.request({
        origin,
        path: req.url ?? "/",
        method: (req.method ?? "GET") as "POST",
        headers: headers as Record<string, string>,
        body: Buffer.concat(chunks),
      });
      res.writeHead(reply.statusCode, {
        "content-type": String(reply.headers["content-type"] ?? "application/json"),
      });
      for await (const chunk of reply.body) res.write(chunk);
      res.end();
    } catch {
      res.writeHead(502).end();
    }
  });
  const listening = await listenLocal(server);
  return {
    url: listening.url,
    async close() {
      await listening.close();
      await agent.close();
    },
  };
}
