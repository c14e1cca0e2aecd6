import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isPrivateAddress, parseIPv6 } from "./private-address.js";

describe("isPrivateAddress", () => {
  it.each([
    ["0.0.0.0", "this network"],
    ["10.0.0.1", "private 10/8"],
    ["100.64.0.1", "CGNAT"],
    ["100.127.255.255", "CGNAT top"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback top"],
    ["169.254.169.254", "link-local metadata"],
    ["172.16.0.1", "private 172.16/12"],
    ["172.31.255.255", "private 172.16/12 top"],
    ["192.0.0.8", "IETF"],
    ["192.0.2.1", "TEST-NET-1"],
    ["192.168.1.1", "private 192.168/16"],
    ["198.18.0.1", "benchmarking"],
    ["198.51.100.1", "TEST-NET-2"],
    ["203.0.113.1", "TEST-NET-3"],
    ["224.0.0.1", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
    ["::", "v6 unspecified"],
    ["::1", "v6 loopback"],
    ["fc00::1", "ULA fc00::/7"],
    ["fdff:ffff::1", "ULA fd"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local with zone"],
    ["febf::1", "link-local top"],
    ["fec0::1", "site-local"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:10.0.0.1", "IPv4-mapped private"],
    ["::ffff:a00:1", "IPv4-mapped private in hex"],
    ["[::ffff:192.168.0.1]", "bracketed mapped"],
    ["::127.0.0.1", "IPv4-compatible loopback"],
    ["64:ff9b::10.0.0.1", "NAT64 of a private v4"],
    ["2002:a00:1::1", "6to4 of 10.0.0.1"],
    ["2001::1", "Teredo"],
    ["2001:db8::1", "documentation"],
    ["100::1", "discard-only"],
    ["not-an-ip", "not an IP: fail closed"],
    ["0177.0.0.1", "octal-looking v4: fail closed"],
    ["1.2.3", "short v4: fail closed"],
    ["", "empty: fail closed"],
  ])("%s is private (%s)", (ip) => {
    expect(isPrivateAddress(ip)).toBe(true);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "100.63.255.255",
    "100.128.0.0",
    "172.15.255.255",
    "172.32.0.0",
    "192.167.255.255",
    "11.0.0.1",
    "2606:4700:4700::1111",
    "2a00:1450:4001:81b::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::8.8.8.8",
    "2002:808:808::1",
  ])("%s is public", (ip) => {
    expect(isPrivateAddress(ip)).toBe(false);
  });

  it("property: an IPv4-mapped IPv6 address is judged as the IPv4 it carries", () => {
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        expect(isPrivateAddress(`::ffff:${v4}`)).toBe(isPrivateAddress(v4));
      }),
    );
  });
  it("property: every IPv6 fast-check makes parses to eight 16-bit groups", () => {
    fc.assert(
      fc.property(fc.ipV6(), (v6) => {
        const groups = parseIPv6(v6);
        expect(groups).toHaveLength(8);
        for (const g of groups ?? []) expect(g >= 0 && g <= 0xffff).toBe(true);
      }),
    );
  });
  it("parseIPv6 refuses malformed text", () => {
    for (const bad of [
      "1:::2",
      "1::2::3",
      "12345::",
      "1:2:3:4:5:6:7:8:9",
      "1:2:3:4:5:6:7",
      "g::1",
    ]) {
      expect(parseIPv6(bad)).toBeUndefined();
    }
  });
});
