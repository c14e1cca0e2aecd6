import { describe, expect, it } from "vitest";
import { routedPath } from "./front-door.ts";

describe("routedPath", () => {
  it.each([
    ["/v1/chat/completions", "/v1/chat/completions"],
    ["/v1/chat/completions?x=1", "/v1/chat/completions"],
    ["http://example.test/v1/messages?beta=true", "/v1/messages"],
    ["HTTPS://example.test:8443/v1/messages", "/v1/messages"],
    ["/v1/x/../chat/./completions", "/v1/chat/completions"],
    ["/v%31/chat/completions", "/v1/chat/completions"],
    // Reserved characters stay escaped: a path parameter decodes them itself.
    ["/v1beta/models/a%2Fb%3AgenerateContent", "/v1beta/models/a%2Fb%3AgenerateContent"],
    ["/v1/%E2%82%AC", "/v1/€"],
    // An escaped `%` stays escaped: decoding the parameter later must not decode twice.
    ["/v1beta/models/a%2541:generateContent", "/v1beta/models/a%2541:generateContent"],
    ["/v1/%E2%82", "/v1/%E2%82"],
    ["/v1/a b", "/v1/a b"],
  ])("%s routes as %s", (target, path) => {
    expect(routedPath(target)).toBe(path);
  });

  it.each(["", "*", "v1/chat", "/v1\\chat", "ftp://example.test/v1", "http://[bad/v1"])(
    "%j is no path (the server refuses it)",
    (target) => {
      expect(routedPath(target)).toBeUndefined();
    },
  );
});
