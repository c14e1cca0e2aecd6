import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createProviderSimApp } from "./app.ts";
import type { RecordedRequest } from "./core/record.ts";
import type { ProviderSimOptions } from "./options.ts";

export type StartOptions = Omit<ProviderSimOptions, "requests"> & {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
};

export type ProviderSim = {
  /** Base URL of all three protocols, e.g. http://127.0.0.1:9100 (no trailing slash). */
  url: string;
  port: number;
  /** Every request received, oldest first (see the `record` option). */
  requests: RecordedRequest[];
  /** Stops listening and cuts open connections, hanging ones included. */
  close(): Promise<void>;
};

export function startProviderSim(options: StartOptions = {}): Promise<ProviderSim> {
  const { port = 0, host = "127.0.0.1", ...simOptions } = options;
  const requests: RecordedRequest[] = [];
  const app = createProviderSimApp({ ...simOptions, requests });
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: host }, (info: AddressInfo) => {
      const shown = info.family === "IPv6" ? `[${info.address}]` : info.address;
      resolve({
        url: `http://${shown}:${info.port}`,
        port: info.port,
        requests,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            if ("closeAllConnections" in server) server.closeAllConnections();
          }),
      });
    });
    server.once("error", reject);
  });
}
