import { isIP } from "node:net";
import { isPrivateAddress } from "@interlingua/tasks";
import type { GatewayConfig } from "../config/config-schema.ts";

// "The domain must not point at the service's own domain": the hosts the gateway is reached
// by. A private or wildcard listen address is left out (the private-address rule covers it,
// and tests that receive on loopback with allow_private_targets must not trip over it).

const WILDCARDS = new Set(["0.0.0.0", "::", "[::]"]);

/**
 * `public_url`'s host (with its port: checkCallbackUrl compares ports in test mode only), a
 * public listen host, and `ownUrl` (the URL the gateway listens on, when it is known).
 */
export function serviceHosts(
  config: Pick<GatewayConfig, "public_url" | "listen">,
  ownUrl?: string,
): string[] {
  const hosts = new Set<string>();
  if (config.public_url !== undefined) hosts.add(new URL(config.public_url).host);
  if (ownUrl !== undefined && ownUrl !== "") hosts.add(new URL(ownUrl).host);
  const listen = config.listen.host;
  const named = isIP(listen) === 0;
  if (!WILDCARDS.has(listen) && (named ? listen !== "localhost" : !isPrivateAddress(listen))) {
    hosts.add(listen);
  }
  return [...hosts];
}
