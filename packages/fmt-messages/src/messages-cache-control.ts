import type { CacheControl } from "@interlingua/core-types";
import type { MessagesCacheControl } from "./messages-api.js";

export function fromMessagesCacheControl(
  wire: MessagesCacheControl | null | undefined,
): CacheControl | undefined {
  if (!wire) return undefined;
  return wire.ttl === undefined ? { type: "ephemeral" } : { type: "ephemeral", ttl: wire.ttl };
}

export function toMessagesCacheControl(cacheControl: CacheControl): MessagesCacheControl {
  return cacheControl.ttl === undefined
    ? { type: "ephemeral" }
    : { type: "ephemeral", ttl: cacheControl.ttl };
}
