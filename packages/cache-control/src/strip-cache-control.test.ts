import { type Request, stripCacheControl } from "@interlingua/core-types";
import * as arb from "@interlingua/core-types/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cacheControlPaths } from "../test/requests.js";

/**
 * The expected output, computed independently: a deep copy that leaves the field out. Built with
 * `Object.fromEntries` because generated JSON may hold an own `__proto__` key, which plain
 * assignment would turn into the copy's prototype instead of a field.
 */
function withoutMarkers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutMarkers);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "cacheControl")
      .map(([key, member]) => [key, withoutMarkers(member)]),
  );
}

/** ... and leaves a top-level `cache_control` out of every extras bag. */
function expected(request: Request): unknown {
  const out = withoutMarkers(request) as Request;
  if (out.extras === undefined) return out;
  const extras = Object.fromEntries(
    Object.entries(out.extras).map(([format, { cache_control: _c, ...bag }]) => [format, bag]),
  );
  return { ...out, extras };
}

describe("rule 8: stripCacheControl", () => {
  it("leaves no cacheControl anywhere and changes nothing else", () => {
    fc.assert(
      fc.property(arb.request, (request) => {
        const out = stripCacheControl(request);
        expect(cacheControlPaths(out)).toEqual([]);
        expect(out).toEqual(expected(request));
      }),
    );
  });

  it("does not mutate its input", () => {
    fc.assert(
      fc.property(arb.request, (request) => {
        const before = structuredClone(request);
        stripCacheControl(request);
        expect(request).toEqual(before);
      }),
    );
  });

  it("strips system, nested tool-result blocks and tools", () => {
    const marker = { type: "ephemeral" as const, ttl: "1h" as const };
    const request: Request = {
      model: "m",
      system: [{ type: "text", text: "s", cacheControl: marker }],
      messages: [
        {
          role: "tool",
          parts: [
            {
              type: "tool-result",
              toolCallId: "c",
              content: [{ type: "text", text: "r", cacheControl: marker }],
              cacheControl: marker,
            },
          ],
        },
      ],
      sampling: {},
      tools: [{ type: "function", name: "f", parameters: {}, cacheControl: marker }],
      stream: false,
    };
    expect(stripCacheControl(request)).toEqual({
      model: "m",
      system: [{ type: "text", text: "s" }],
      messages: [
        {
          role: "tool",
          parts: [{ type: "tool-result", toolCallId: "c", content: [{ type: "text", text: "r" }] }],
        },
      ],
      sampling: {},
      tools: [{ type: "function", name: "f", parameters: {} }],
      stream: false,
    });
    expect(cacheControlPaths(request)).toEqual([
      "system[0].cacheControl",
      "messages[0].parts[0].content[0].cacheControl",
      "messages[0].parts[0].cacheControl",
      "tools[0].cacheControl",
    ]);
  });

  it("drops a top-level cache_control kept in a format's extras, and keeps the rest", () => {
    const request: Request = {
      model: "m",
      system: [],
      messages: [{ role: "user", parts: [{ type: "text", text: "hi" }] }],
      sampling: {},
      tools: [],
      stream: false,
      extras: {
        chat: { cache_control: { type: "ephemeral" }, prompt_cache_key: "k" },
        native: { labels: { a: "b" } },
      },
    };
    expect(stripCacheControl(request).extras).toEqual({
      chat: { prompt_cache_key: "k" },
      native: { labels: { a: "b" } },
    });
    expect(request.extras?.chat).toHaveProperty("cache_control");
  });
});
