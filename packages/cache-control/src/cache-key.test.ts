import type { CacheTtl, Message, Request } from "@interlingua/core-types";
import * as arb from "@interlingua/core-types/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cachedThrough } from "../test/analyses.js";
import type { CachedAnalysis } from "./cache-analysis.js";
import { cacheKey } from "./cache-key.js";
import { base64Digest } from "./media-digest.js";

interface Case {
  request: Request;
  analysis: CachedAnalysis;
  user: string;
  channel: string;
  model: string;
}

/** A request with at least one live message and a cached analysis of a prefix of it. */
const keyCase: fc.Arbitrary<Case> = fc
  .record({
    request: arb.request.filter((r) => r.messages.length >= 2),
    ttl: fc.constantFrom<CacheTtl>("5m", "1h"),
    cut: fc.double({ min: 0, max: 1, noNaN: true }),
    user: arb.identifier,
    channel: arb.identifier,
    model: arb.identifier,
  })
  .map(({ request, ttl, cut, ...who }) => {
    const prefixMessages =
      1 + Math.min(Math.floor(cut * (request.messages.length - 1)), request.messages.length - 2);
    return { request, analysis: cachedThrough(prefixMessages, ttl), ...who };
  });

const keyOf = (c: Case) => cacheKey(c);

const withRequest = (c: Case, request: Request): Case => ({ ...c, request });

const withPrefixMessage = (c: Case, index: number, message: Message): Case => {
  const messages = [...c.request.messages];
  messages[index % c.analysis.prefixMessages] = message;
  return withRequest(c, { ...c.request, messages });
};

/**
 * The same data with every object's keys written in reverse order (`Object.fromEntries` keeps an
 * own `__proto__` key a field, where assignment would make it the prototype).
 */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, member]) => [key, reverseKeys(member)]),
  );
}

/** Equal as data after removing every cacheControl (markers are not content). */
const sameContent = (a: unknown, b: unknown) =>
  JSON.stringify(a, (k, v) => (k === "cacheControl" ? undefined : v)) ===
  JSON.stringify(b, (k, v) => (k === "cacheControl" ? undefined : v));

describe("cacheKey", () => {
  it("is 64 hex digits and deterministic", () => {
    fc.assert(
      fc.property(keyCase, (c) => {
        const key = keyOf(c);
        expect(key).toMatch(/^[0-9a-f]{64}$/);
        expect(keyOf(structuredClone(c))).toBe(key);
      }),
    );
  });

  it("does not depend on object key order", () => {
    fc.assert(
      fc.property(keyCase, (c) => {
        const reordered = { ...c, request: reverseKeys(c.request) as Request };
        expect(keyOf(reordered)).toBe(keyOf(c));
      }),
    );
  });

  it("changes with the API user, the channel or the upstream model (rule 4)", () => {
    fc.assert(
      fc.property(keyCase, arb.identifier, (c, other) => {
        fc.pre(other !== c.user && other !== c.channel && other !== c.model);
        const key = keyOf(c);
        expect(keyOf({ ...c, user: other })).not.toBe(key);
        expect(keyOf({ ...c, channel: other })).not.toBe(key);
        expect(keyOf({ ...c, model: other })).not.toBe(key);
      }),
    );
  });

  it("changes with the ttl", () => {
    fc.assert(
      fc.property(keyCase, (c) => {
        const ttl = c.analysis.ttl === "5m" ? "1h" : "5m";
        expect(keyOf({ ...c, analysis: { ...c.analysis, ttl } })).not.toBe(keyOf(c));
      }),
    );
  });

  it("changes when any prefix message changes", () => {
    fc.assert(
      fc.property(keyCase, fc.nat(), arb.message, (c, index, message) => {
        const changed = withPrefixMessage(c, index, message);
        fc.pre(!sameContent(changed.request.messages, c.request.messages));
        expect(keyOf(changed)).not.toBe(keyOf(c));
      }),
    );
  });

  it("changes when prefix messages change order", () => {
    fc.assert(
      fc.property(keyCase, (c) => {
        const prefix = c.request.messages.slice(0, c.analysis.prefixMessages);
        const reversed = [...prefix].reverse();
        fc.pre(!sameContent(prefix, reversed));
        const messages = [...reversed, ...c.request.messages.slice(c.analysis.prefixMessages)];
        expect(keyOf(withRequest(c, { ...c.request, messages }))).not.toBe(keyOf(c));
      }),
    );
  });

  it("changes with the system text and the tool definitions", () => {
    fc.assert(
      fc.property(keyCase, arb.textPart, arb.tool, (c, part, tool) => {
        const key = keyOf(c);
        const system = [...c.request.system, part];
        expect(keyOf(withRequest(c, { ...c.request, system }))).not.toBe(key);
        const tools = [...c.request.tools, tool];
        expect(keyOf(withRequest(c, { ...c.request, tools }))).not.toBe(key);
      }),
    );
  });

  it("changes when a tool's description changes", () => {
    const c = fc.sample(keyCase, { numRuns: 1, seed: 7 })[0]!;
    const tool = {
      type: "function" as const,
      name: "lookup",
      description: "v1",
      parameters: { type: "object" },
    };
    const a = withRequest(c, { ...c.request, tools: [tool] });
    const b = withRequest(c, { ...c.request, tools: [{ ...tool, description: "v2" }] });
    expect(keyOf(a)).not.toBe(keyOf(b));
  });

  it("does not change with anything after the boundary or outside the cached content", () => {
    fc.assert(
      fc.property(
        keyCase,
        fc.array(arb.message, { minLength: 1, maxLength: 3 }),
        arb.sampling,
        fc.boolean(),
        fc.nat(),
        arb.thinkingConfig,
        (c, live, sampling, stream, maxTokens, thinking) => {
          const request: Request = {
            ...c.request,
            messages: [...c.request.messages.slice(0, c.analysis.prefixMessages), ...live],
            sampling: { ...sampling, maxTokens: maxTokens + 1 },
            stream,
            thinking,
          };
          expect(keyOf(withRequest(c, request))).toBe(keyOf(c));
        },
      ),
    );
  });

  it("does not change when boundary markers move inside the prefix", () => {
    fc.assert(
      fc.property(keyCase, (c) => {
        const stripped = JSON.parse(
          JSON.stringify(c.request, (k, v) => (k === "cacheControl" ? undefined : v)),
        ) as Request;
        expect(keyOf(withRequest(c, stripped))).toBe(keyOf(c));
      }),
    );
  });

  it("tells images apart by their bytes, and keeps only a digest of them", () => {
    const c = fc.sample(keyCase, { numRuns: 1, seed: 11 })[0]!;
    const image = (data: string): Message => ({
      role: "user",
      parts: [{ type: "image", source: { type: "base64", mediaType: "image/png", data } }],
    });
    const a = withPrefixMessage(c, 0, image(btoa("pixels-a")));
    const b = withPrefixMessage(c, 0, image(btoa("pixels-b")));
    const wrapped = withPrefixMessage(
      c,
      0,
      image(`${btoa("pixels-a").slice(0, 4)}\n${btoa("pixels-a").slice(4)}`),
    );
    expect(keyOf(a)).not.toBe(keyOf(b));
    expect(keyOf(wrapped)).toBe(keyOf(a));
  });
});

describe("base64Digest", () => {
  it("is the SHA-256 of the decoded bytes", () => {
    expect(base64Digest(btoa("abc"))).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });

  it("hashes text that is not base64 as text, apart from any bytes", () => {
    expect(base64Digest("not base64!")).toBe(
      "text:f17f1486250c2a7f6afd2c2a889eab4e588961369aa67eab511cab9425df2818",
    );
  });
});
