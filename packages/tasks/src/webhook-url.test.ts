import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { callbackUrl, checkCallbackUrl } from "./webhook-url.js";

const prod = { serviceHosts: ["api.gateway.example", "gw.example:8443"] };
const verdict = (url: string, options = prod) => checkCallbackUrl(url, options).ok;

describe("callbackUrl", () => {
  it("appends /callback to the base", () => {
    expect(callbackUrl("https://hooks.example/tasks")).toBe("https://hooks.example/tasks/callback");
  });
  it("tolerates a trailing slash on the base", () => {
    expect(callbackUrl("https://hooks.example/tasks/")).toBe(
      "https://hooks.example/tasks/callback",
    );
    expect(callbackUrl("https://hooks.example/")).toBe("https://hooks.example/callback");
    expect(callbackUrl("https://hooks.example")).toBe("https://hooks.example/callback");
  });
  it("keeps a query string on the base and drops the fragment", () => {
    expect(callbackUrl("https://hooks.example/t?token=a#frag")).toBe(
      "https://hooks.example/t/callback?token=a",
    );
  });
  it("trims surrounding spaces", () => {
    expect(callbackUrl("  https://hooks.example/t  ")).toBe("https://hooks.example/t/callback");
  });
  it("a base that is not a URL still gets the suffix (and fails the check)", () => {
    expect(callbackUrl("not a url/")).toBe("not a url/callback");
    expect(verdict(callbackUrl("not a url/"))).toBe(false);
  });
});

describe("checkCallbackUrl (docs/api-reference.md Events item 7)", () => {
  it("accepts public https and http URLs on standard ports", () => {
    expect(verdict("https://hooks.example/cb")).toBe(true);
    expect(verdict("http://hooks.example/cb")).toBe(true);
    expect(verdict("https://hooks.example:443/cb")).toBe(true);
    expect(verdict("http://hooks.example:80/cb")).toBe(true);
    expect(verdict("https://8.8.8.8/cb")).toBe(true);
  });
  it("scheme must be http or https", () => {
    for (const url of [
      "ftp://hooks.example/",
      "file:///etc/passwd",
      "gopher://hooks.example/",
      "javascript:alert(1)",
    ]) {
      expect(checkCallbackUrl(url, prod)).toMatchObject({ ok: false });
    }
  });
  it("ports other than 80 and 443 are refused", () => {
    expect(checkCallbackUrl("https://hooks.example:8443/", prod)).toEqual({
      ok: false,
      reason: "port 8443 is not 80 or 443",
    });
    expect(verdict("http://hooks.example:22/")).toBe(false);
  });
  it("credentials in the URL are refused", () => {
    expect(verdict("https://user:pass@hooks.example/")).toBe(false);
    expect(verdict("https://user@hooks.example/")).toBe(false);
  });
  it("the service's own host is refused, with or without port, case and trailing dot ignored", () => {
    expect(verdict("https://api.gateway.example/cb")).toBe(false);
    expect(verdict("https://API.Gateway.Example./cb")).toBe(false);
    expect(verdict("https://gw.example/cb")).toBe(false);
  });
  it("subdomains of the service's host are refused", () => {
    expect(verdict("https://x.api.gateway.example/cb")).toBe(false);
    expect(verdict("https://gateway.example/cb")).toBe(true);
  });
  it.each([
    "http://127.0.0.1/",
    "http://10.1.2.3/",
    "http://192.168.1.1/",
    "http://172.16.0.1/",
    "http://169.254.169.254/latest/meta-data",
    "http://100.64.0.1/",
    "http://0.0.0.0/",
    "http://[::1]/",
    "http://[fd00::1]/",
    "http://[fe80::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:a00:1]/",
    "http://2130706433/",
    "http://0x7f.1/",
    "http://localhost/",
    "http://api.localhost/",
    "http://printer.local/",
    "http://metadata.google.internal/",
    "http://intranet/",
  ])("private or local target %s is refused", (url) => {
    expect(verdict(url)).toBe(false);
  });
  it("not a URL is refused", () => {
    expect(verdict("hooks.example/cb")).toBe(false);
    expect(verdict("")).toBe(false);
  });

  const testMode = { serviceHosts: ["127.0.0.1:3000"], allowPrivate: true };
  it("allowPrivate (tests only) lets loopback through on any port", () => {
    expect(verdict("http://127.0.0.1:45123/hook", testMode)).toBe(true);
    expect(verdict("http://localhost:45123/hook", testMode)).toBe(true);
  });
  it("allowPrivate still refuses the gateway itself (same host and port) and bad schemes", () => {
    expect(verdict("http://127.0.0.1:3000/hook", testMode)).toBe(false);
    expect(verdict("ftp://127.0.0.1:45123/", testMode)).toBe(false);
    expect(verdict("http://u:p@127.0.0.1:45123/", testMode)).toBe(false);
  });

  const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/);
  const publicHost = fc
    .tuple(label, fc.constantFrom("com", "org", "io", "example"))
    .map(([a, b]) => `${a}.${b}`);
  const path = fc
    .array(fc.stringMatching(/^[A-Za-z0-9._~-]{0,8}$/), { maxLength: 4 })
    .map((s) => s.join("/"));
  const anyUrl = fc.oneof(
    fc
      .record({
        scheme: fc.constantFrom("http", "https", "ftp"),
        host: fc.oneof(
          publicHost,
          fc.ipV4(),
          fc.ipV6().map((h) => `[${h}]`),
          fc.constantFrom("localhost", "api.gateway.example"),
        ),
        port: fc.constantFrom("", ":80", ":443", ":8080"),
        path,
        slash: fc.constantFrom("", "/", "//"),
        query: fc.constantFrom("", "?a=1", "?x=%2F"),
      })
      .map(
        ({ scheme, host, port, path: p, slash, query }) =>
          `${scheme}://${host}${port}/${p}${slash}${query}`,
      ),
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
  );

  it("property: every URL the policy accepts still passes after callbackUrl", () => {
    fc.assert(
      fc.property(anyUrl, fc.boolean(), (url, allowPrivate) => {
        const options = { ...prod, allowPrivate };
        if (checkCallbackUrl(url, options).ok) {
          expect(checkCallbackUrl(callbackUrl(url), options)).toEqual({ ok: true });
        }
      }),
      { numRuns: 1000 },
    );
  });
  it("property: callbackUrl keeps scheme, host and port, and its path ends in /callback", () => {
    fc.assert(
      fc.property(anyUrl, (url) => {
        const before = new URL(url);
        const after = new URL(callbackUrl(url));
        expect([after.protocol, after.host, after.search]).toEqual([
          before.protocol,
          before.host,
          before.search,
        ]);
        expect(after.pathname.endsWith("/callback")).toBe(true);
        expect(after.pathname.endsWith("//callback")).toBe(false);
      }),
    );
  });
  it("property: the check accepts some generated URLs (the property above is not vacuous)", () => {
    const samples = fc.sample(anyUrl, { numRuns: 300, seed: 7 });
    expect(samples.filter((u) => checkCallbackUrl(u, prod).ok).length).toBeGreaterThan(30);
  });
});
