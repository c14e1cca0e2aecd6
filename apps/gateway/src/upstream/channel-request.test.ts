import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { type ChannelAddress, channelDispatchOptions } from "./channel-request.ts";

const SRC = join(import.meta.dirname, "..");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

const gemini: ChannelAddress = {
  origin: "https://g.example",
  basePath: "/proxy",
  protocol: "gemini",
  apiKey: "gk",
};

describe("channelDispatchOptions", () => {
  it("puts the path under the base path and signs with the protocol's key header", () => {
    const options = channelDispatchOptions(gemini, {
      path: "/v1beta/cachedContents",
      headers: { "content-type": "application/json" },
      body: "{}",
      headersTimeoutMs: 10,
    });
    expect(options).toMatchObject({
      origin: "https://g.example",
      path: "/proxy/v1beta/cachedContents",
      method: "POST",
      body: "{}",
      headersTimeout: 10,
      headers: { "content-type": "application/json", "x-goog-api-key": "gk" },
    });
    expect(options).not.toHaveProperty("bodyTimeout");
  });

  it("takes a path from the origin as it is (a URL the channel handed back)", () => {
    const options = channelDispatchOptions(gemini, {
      method: "GET",
      path: "/v1beta/files/a:download?alt=media",
      fromOrigin: true,
    });
    expect(options).toMatchObject({ path: "/v1beta/files/a:download?alt=media", method: "GET" });
  });

  it("passes the client's forwarded headers to the protocol", () => {
    const anthropic: ChannelAddress = { ...gemini, protocol: "anthropic", apiKey: "ak" };
    const options = channelDispatchOptions(anthropic, {
      path: "/v1/messages",
      forwarded: { "anthropic-beta": "b1" },
    });
    expect(options.headers).toMatchObject({ "x-api-key": "ak", "anthropic-beta": "b1" });
  });
});

describe("one sender to channels", () => {
  it("no other module signs a request with a channel's key or sends on the upstream agent", () => {
    const offenders = sources(SRC)
      .filter((file) => !file.endsWith("channel-request.ts"))
      .filter((file) =>
        /\.headers\(\s*(channel|config)?\.?api_?[kK]ey|\bagent\.(request|dispatch)\(/.test(
          readFileSync(file, "utf8"),
        ),
      )
      .map((file) => relative(SRC, file));
    expect(offenders).toEqual([]);
  });
});
