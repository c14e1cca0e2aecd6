import { isPrivateAddress, parseIPv4, parseIPv6 } from "./private-address.js";

/** docs/api-reference.md "Events" item 7: standard ports only. */
export const WEBHOOK_PORTS: readonly string[] = ["", "80", "443"];

/**
 * docs/api-reference.md "Events" item 1: the URL called is the caller's base plus `/callback`; a trailing slash on
 * the base is tolerated. The suffix goes on the path, so a query string on the base survives.
 * A base that is not a URL is returned as plain text plus suffix (the check then refuses it).
 */
export function callbackUrl(base: string): string {
  const text = base.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `${text.replace(/\/+$/, "")}/callback`;
  }
  url.hash = "";
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/callback`;
  return url.href;
}

export interface CallbackUrlOptions {
  /** The gateway's own hosts (its public_url host and any aliases), `host` or `host:port`. */
  serviceHosts: readonly string[];
  /**
   * Tests only (`webhooks.allow_private_targets`): lets private and loopback targets through on
   * any port, and a service host given with a port then only matches that port, so a receiver on
   * 127.0.0.1:<port> next to a gateway on 127.0.0.1:<other port> is allowed.
   */
  allowPrivate?: boolean;
}

export type CallbackUrlVerdict = { ok: true } | { ok: false; reason: string };

interface HostPort {
  host: string;
  port: string | undefined;
}

/** `Host:8080`, `[::1]:80`, `host.` -> lowercased bare host and the port when one is given. */
function splitHost(raw: string): HostPort {
  const text = raw.trim().toLowerCase();
  const bracket = /^\[(.*)\](?::(\d+))?$/.exec(text);
  if (bracket) return { host: bracket[1] ?? "", port: bracket[2] };
  const colon = /^([^:]*):(\d+)$/.exec(text);
  const [host, port] = colon ? [colon[1] ?? "", colon[2]] : [text, undefined];
  return { host: host.replace(/\.+$/, ""), port };
}

const effectivePort = (url: URL) => url.port || (url.protocol === "https:" ? "443" : "80");

/** Names that always mean this machine or its local network, whatever DNS says. */
const LOCAL_NAMES = [/^localhost$/, /\.localhost$/, /\.local$/, /\.internal$/, /\.home\.arpa$/];

function isServiceHost(url: URL, host: string, options: CallbackUrlOptions): boolean {
  return options.serviceHosts.some((entry) => {
    const own = splitHost(entry);
    if (own.host === "") return false;
    const sameName = host === own.host || host.endsWith(`.${own.host}`);
    // In production the domain decides whatever the port; only test mode tells ports apart.
    const samePort =
      !options.allowPrivate || own.port === undefined || own.port === effectivePort(url);
    return sameName && samePort;
  });
}

/**
 * docs/api-reference.md "Events" item 7, the rules a URL shows on its face: http or https, port 80 or 443, no
 * credentials, not the service's own host (or a subdomain of it), and not a private or local
 * address literal or name. DNS names are re-checked after resolution at send time by the gateway.
 * A URL that fails is dropped silently (no push, no retry): the verdict says why, for logs.
 */
export function checkCallbackUrl(raw: string, options: CallbackUrlOptions): CallbackUrlVerdict {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: "not a URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, reason: `scheme ${url.protocol} is not http or https` };
  }
  if (url.username || url.password) return { ok: false, reason: "credentials in the URL" };
  const { host } = splitHost(url.hostname);
  if (host === "") return { ok: false, reason: "no host" };
  if (isServiceHost(url, host, options)) return { ok: false, reason: "the service's own host" };
  if (options.allowPrivate) return { ok: true };
  if (!WEBHOOK_PORTS.includes(url.port)) {
    return { ok: false, reason: `port ${url.port} is not 80 or 443` };
  }
  const literal = parseIPv4(host) !== undefined || parseIPv6(host) !== undefined;
  if (literal && isPrivateAddress(host)) return { ok: false, reason: "private or local address" };
  if (!literal && LOCAL_NAMES.some((name) => name.test(host))) {
    return { ok: false, reason: "local host name" };
  }
  if (!literal && !host.includes(".")) return { ok: false, reason: "not a public host name" };
  return { ok: true };
}
