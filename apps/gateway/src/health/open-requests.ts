import type { Server } from "node:http";

/** Requests under way on a server (an open stream is one until its response closes). */
export interface OpenRequests {
  count(): number;
  /**
   * Shutdown: stops accepting connections, lets requests under way finish for at most `ms`,
   * closing each connection as it goes idle, then closes whatever is left. True when every
   * request finished in time.
   */
  drain(ms: number): Promise<boolean>;
}

const POLL_MS = 50;

export function trackOpenRequests(server: Server): OpenRequests {
  let open = 0;
  server.on("request", (_request, response) => {
    open += 1;
    response.once("close", () => {
      open -= 1;
    });
  });
  return {
    count: () => open,
    async drain(ms) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const deadline = Date.now() + ms;
      // Keep-alive connections go idle between requests: close them so clients reconnect
      // elsewhere, and the server's close can complete.
      while (open > 0 && Date.now() < deadline) {
        server.closeIdleConnections();
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      const finished = open === 0;
      server.closeAllConnections();
      await closed;
      return finished;
    },
  };
}
