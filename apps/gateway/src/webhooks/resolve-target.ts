import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { checkCallbackUrl, isPrivateAddress } from "@interlingua/tasks";

// The SSRF guard at send time. The URL was checked at submit, but a name can point anywhere by
// the time the push goes out: re-check the rules, resolve the host, refuse if ANY address is
// private, and hand back the vetted addresses for the sender to pin (no second lookup to rebind).

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Every address of a host name (A and AAAA). */
export type LookupAll = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemLookup: LookupAll = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

export interface TargetPolicy {
  /** The gateway's own host names: never a target. */
  readonly serviceHosts: readonly string[];
  /** Tests only (`webhooks.allow_private_targets`): loopback and private targets allowed. */
  readonly allowPrivate: boolean;
  readonly lookup: LookupAll;
}

export type ResolvedTarget =
  | {
      readonly kind: "ok";
      readonly url: URL;
      /** The first vetted address: where a single-address connection goes. */
      readonly pinned: ResolvedAddress;
      /** Every address of the host (`pinned` first), all vetted: a connection uses only these. */
      readonly addresses: readonly [ResolvedAddress, ...ResolvedAddress[]];
    }
  /** The URL breaks a rule: the push is dropped, not retried. */
  | { readonly kind: "refused"; readonly reason: string }
  /** The name did not resolve now: a network error, retried. */
  | { readonly kind: "unresolved"; readonly error: string };

/** `[::1]` -> `::1`: URL keeps IPv6 literals bracketed. */
const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, "$1");

async function addressesOf(
  host: string,
  policy: TargetPolicy,
): Promise<readonly ResolvedAddress[]> {
  const family = isIP(host);
  if (family !== 0) return [{ address: host, family: family === 6 ? 6 : 4 }];
  return policy.lookup(host);
}

export async function resolveTarget(raw: string, policy: TargetPolicy): Promise<ResolvedTarget> {
  const rules = checkCallbackUrl(raw, {
    serviceHosts: policy.serviceHosts,
    allowPrivate: policy.allowPrivate,
  });
  if (!rules.ok) return { kind: "refused", reason: rules.reason };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { kind: "refused", reason: "not a URL" };
  }
  let addresses: readonly ResolvedAddress[];
  try {
    addresses = await addressesOf(bareHost(url.hostname), policy);
  } catch (error) {
    return { kind: "unresolved", error: `DNS lookup failed: ${(error as Error).message}` };
  }
  const [first, ...rest] = addresses;
  if (first === undefined) return { kind: "unresolved", error: "DNS lookup returned no address" };
  if (!policy.allowPrivate) {
    const blocked = addresses.find((a) => isPrivateAddress(a.address));
    if (blocked !== undefined) {
      return {
        kind: "refused",
        reason: `host resolves to a non-public address ${blocked.address}`,
      };
    }
  }
  return { kind: "ok", url, pinned: first, addresses: [first, ...rest] };
}
