/**
 * Whether an IP address is not a public unicast target: the ranges a webhook must never reach
 * (SSRF). IPv4-mapped, IPv4-compatible, NAT64 and 6to4 IPv6 forms are judged by the IPv4 address
 * they carry. Anything that is not an IP literal counts as private: fail closed.
 */

type V4Range = readonly [base: number, bits: number];

const cidr4 = (text: string, bits: number): V4Range => [parseIPv4(text) ?? 0, bits];

/** RFC 6890 special-purpose IPv4 blocks and the other non-global ranges. */
const PRIVATE_V4: readonly V4Range[] = [
  cidr4("0.0.0.0", 8), // "this network"
  cidr4("10.0.0.0", 8), // private
  cidr4("100.64.0.0", 10), // carrier-grade NAT
  cidr4("127.0.0.0", 8), // loopback
  cidr4("169.254.0.0", 16), // link-local (cloud metadata lives here)
  cidr4("172.16.0.0", 12), // private
  cidr4("192.0.0.0", 24), // IETF protocol assignments
  cidr4("192.0.2.0", 24), // TEST-NET-1
  cidr4("192.88.99.0", 24), // 6to4 relay anycast
  cidr4("192.168.0.0", 16), // private
  cidr4("198.18.0.0", 15), // benchmarking
  cidr4("198.51.100.0", 24), // TEST-NET-2
  cidr4("203.0.113.0", 24), // TEST-NET-3
  cidr4("224.0.0.0", 4), // multicast
  cidr4("240.0.0.0", 4), // reserved, and 255.255.255.255 broadcast
];

export function parseIPv4(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    // Dotted decimal only: leading zeros (octal in some resolvers) are refused, not guessed.
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    value = value * 256 + n;
  }
  return value;
}

function inV4Range(ip: number, [base, bits]: V4Range): boolean {
  const size = 2 ** (32 - bits);
  return Math.floor(ip / size) === Math.floor(base / size);
}

function isPrivateV4(ip: number): boolean {
  return PRIVATE_V4.some((range) => inV4Range(ip, range));
}

/** Eight 16-bit groups, or undefined when `text` is not an IPv6 literal. */
export function parseIPv6(text: string): number[] | undefined {
  let s = text;
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(":")) return undefined;
  // A dotted IPv4 tail (::ffff:10.0.0.1) is rewritten as its two hex groups first.
  const lastColon = s.lastIndexOf(":");
  const last = s.slice(lastColon + 1);
  if (last.includes(".")) {
    const v4 = parseIPv4(last);
    if (v4 === undefined) return undefined;
    const hex = (n: number) => n.toString(16);
    s = `${s.slice(0, lastColon + 1)}${hex(Math.floor(v4 / 65536))}:${hex(v4 % 65536)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return undefined;
  const group = (g: string) => (/^[0-9a-fA-F]{1,4}$/.test(g) ? Number.parseInt(g, 16) : Number.NaN);
  const split = (h: string) => (h === "" ? [] : h.split(":").map(group));
  const head = split(halves[0] ?? "");
  const rest = halves.length === 2 ? split(halves[1] ?? "") : [];
  if ([...head, ...rest].some(Number.isNaN)) return undefined;
  const explicit = head.length + rest.length;
  if (halves.length === 1) return explicit === 8 ? head : undefined;
  if (explicit > 7) return undefined;
  return [...head, ...new Array<number>(8 - explicit).fill(0), ...rest];
}

const v4Of = (hi: number, lo: number) => hi * 65536 + lo;

function isPrivateV6(g: readonly number[]): boolean {
  const [a = 0, b = 0, c = 0, , , f = 0, h6 = 0, h7 = 0] = g;
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(5) && f === 0xffff) return isPrivateV4(v4Of(h6, h7)); // ::ffff:a.b.c.d mapped
  if (zeroTo(6) && (h6 !== 0 || h7 > 1)) return isPrivateV4(v4Of(h6, h7)); // ::a.b.c.d compatible
  if (a === 0x64 && b === 0xff9b && c === 1) return true; // 64:ff9b:1::/48 local-use NAT64
  if (a === 0x64 && b === 0xff9b && g.slice(2, 6).every((x) => x === 0)) {
    return isPrivateV4(v4Of(h6, h7)); // 64:ff9b::/96 NAT64 carries the v4 at the end
  }
  if ((a & 0xe000) !== 0x2000) return true; // outside 2000::/3 global unicast: ::, ::1, ULA, link-local, multicast...
  if (a === 0x2002) return isPrivateV4(v4Of(b, c)); // 6to4 carries the v4 in groups 2-3
  if (a === 0x2001 && b < 0x200) return true; // 2001::/23 IETF special purpose, Teredo included
  if (a === 0x2001 && b === 0xdb8) return true; // documentation
  return false;
}

export function isPrivateAddress(ip: string): boolean {
  const text = ip.trim();
  const v4 = parseIPv4(text);
  if (v4 !== undefined) return isPrivateV4(v4);
  const v6 = parseIPv6(text);
  if (v6 !== undefined) return isPrivateV6(v6);
  return true;
}
