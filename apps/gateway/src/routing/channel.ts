import type { UpstreamProtocol } from "@interlingua/core-types";
import type { ChannelConfig } from "../config/config-schema.ts";

/** A configured upstream, with its model list resolved to gateway id -> upstream id. */
export interface Channel {
  readonly name: string;
  readonly protocol: UpstreamProtocol;
  /** Without a trailing slash; upstream paths are appended to it. */
  readonly baseUrl: string;
  /** `baseUrl` split once for the upstream client, which takes an origin and a path. */
  readonly origin: string;
  readonly basePath: string;
  readonly apiKey: string;
  readonly priority: number;
  readonly weight: number;
  readonly models: ReadonlyMap<string, string>;
  /** Whether cache boundaries are carried out on this channel (else: ordinary requests). */
  readonly caching: boolean;
  /** The speech formats the upstream produces; undefined: all of OpenAI's. */
  readonly speechFormats?: ReadonlySet<string>;
  /** Upstream calls in flight at once (a stream holds one until it ends). */
  readonly maxConnections: number;
  /** How long a call waits for a free connection before it gives way (ms). */
  readonly queueTimeoutMs: number;
  /** `timeout` of the config (ms); unset fields fall back to the upstream agent's. */
  readonly timeout?: { readonly firstByteMs?: number; readonly idleMs?: number };
}

export function toChannel(config: ChannelConfig): Channel {
  const models = Array.isArray(config.models)
    ? new Map(config.models.map((id) => [id, id]))
    : new Map(Object.entries(config.models));
  const baseUrl = config.base_url.replace(/\/+$/, "");
  const { origin } = new URL(baseUrl);
  return {
    name: config.name,
    protocol: config.protocol,
    baseUrl,
    origin,
    basePath: baseUrl.slice(origin.length),
    apiKey: config.api_key,
    priority: config.priority,
    weight: config.weight,
    models,
    caching: config.caching,
    maxConnections: config.max_connections,
    queueTimeoutMs: config.queue_timeout_ms,
    ...(config.speech_formats === undefined
      ? {}
      : { speechFormats: new Set(config.speech_formats) }),
    ...(config.timeout === undefined
      ? {}
      : {
          timeout: {
            ...(config.timeout.first_byte_ms === undefined
              ? {}
              : { firstByteMs: config.timeout.first_byte_ms }),
            ...(config.timeout.idle_ms === undefined ? {} : { idleMs: config.timeout.idle_ms }),
          },
        }),
  };
}
