import type { Request } from "@interlingua/core-types";
import { chatProtocol } from "@interlingua/fmt-chat/protocol";
import { nativeProtocol } from "@interlingua/fmt-native/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalCacheControlPaths, stripWireCacheControl } from "./strip-wire-cache-control.js";

const MARK = { type: "ephemeral" };
// Each protocol declares where its clients' markers are only the gateway's hint.
const CHAT = chatProtocol.hintCacheControlAt ?? [];
const NATIVE = nativeProtocol.hintCacheControlAt ?? [];

describe("stripWireCacheControl (rule 8, same-format bodies)", () => {
  it("chat: removes it at every boundary position and names each, copying only what changes", () => {
    const schema = { type: "object", properties: { cache_control: { type: "string" } } };
    const untouched = { role: "assistant", content: "ok" };
    const wire = {
      model: "m",
      cache_control: MARK,
      messages: [
        {
          role: "user",
          cache_control: MARK,
          content: [{ type: "text", text: "a", cache_control: MARK }],
        },
        untouched,
      ],
      tools: [
        {
          type: "function",
          cache_control: MARK,
          function: { name: "f", parameters: schema, cache_control: MARK },
        },
      ],
    };
    const { wire: out, removed } = stripWireCacheControl(CHAT, wire);
    expect(removed).toEqual([
      "cache_control",
      "messages[0].cache_control",
      "messages[0].content[0].cache_control",
      "tools[0].cache_control",
      "tools[0].function.cache_control",
    ]);
    expect(out).toEqual({
      model: "m",
      messages: [{ role: "user", content: [{ type: "text", text: "a" }] }, untouched],
      // A tool parameter that happens to be called cache_control is the tool's, not a boundary.
      tools: [{ type: "function", function: { name: "f", parameters: schema } }],
    });
    expect((out.messages as unknown[])[1]).toBe(untouched);
    expect(wire.messages[0]).toHaveProperty("cache_control");
  });

  it("native: parts, systemInstruction (either spelling), tools and the top level", () => {
    const wire = {
      cache_control: MARK,
      system_instruction: { parts: [{ text: "s", cache_control: MARK }] },
      contents: [{ role: "user", parts: [{ text: "a", cache_control: MARK }, { text: "b" }] }],
      tools: [{ functionDeclarations: [{ name: "f", cache_control: MARK }] }],
    };
    const { wire: out, removed } = stripWireCacheControl(NATIVE, wire);
    expect(JSON.stringify(out)).not.toContain("cache_control");
    expect(removed).toEqual([
      "cache_control",
      "contents[0].parts[0].cache_control",
      "system_instruction.parts[0].cache_control",
      "tools[0].functionDeclarations[0].cache_control",
    ]);
  });

  it("a body without markers comes back as the same object", () => {
    const wire = { model: "m", messages: [{ role: "user", content: "hi" }] };
    expect(stripWireCacheControl(CHAT, wire)).toEqual({ wire, removed: [] });
    expect(stripWireCacheControl(CHAT, wire).wire).toBe(wire);
  });

  it("matches a plain copy-and-delete walk on any body, at either protocol's positions", () => {
    // The walk as the rule reads: each `*` an array's items, each name a member; the marker at
    // the path's end deleted from a deep copy, named as `a[0].b`.
    const reference = (positions: readonly (readonly string[])[], wire: unknown) => {
      const out = structuredClone(wire);
      const removed: string[] = [];
      const walk = (value: unknown, path: readonly string[], name: string): void => {
        const [head, ...rest] = path;
        if (head === undefined) return;
        if (head === "*") {
          if (!Array.isArray(value)) return;
          for (const [i, item] of value.entries()) walk(item, rest, `${name}[${i}]`);
          return;
        }
        if (typeof value !== "object" || value === null || Array.isArray(value)) return;
        const record = value as Record<string, unknown>;
        if (!(head in record)) return;
        const at = name === "" ? head : `${name}.${head}`;
        if (rest.length > 0) {
          walk(record[head], rest, at);
          return;
        }
        delete record[head];
        removed.push(at);
      };
      for (const path of positions) walk(out, path, "");
      return { wire: out, removed };
    };
    const names = ["cache_control", "content", "parts", "function", "text", "x"];
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc.constant(MARK),
        fc.string({ maxLength: 3 }),
        fc.array(tie("value"), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom(...names), tie("value"), { maxKeys: 4 }),
      ),
    })).value;
    const body = fc.record({
      model: fc.constant("m"),
      cache_control: fc.option(fc.constant(MARK), { nil: undefined }),
      messages: fc.array(fc.dictionary(fc.constantFrom("role", ...names), json), { maxLength: 4 }),
      contents: fc.array(fc.dictionary(fc.constantFrom("role", ...names), json), { maxLength: 3 }),
      tools: fc.array(fc.dictionary(fc.constantFrom("type", ...names), json), { maxLength: 2 }),
    });
    fc.assert(
      fc.property(body, fc.constantFrom(CHAT, NATIVE), (wire, positions) => {
        const before = structuredClone(wire);
        const { wire: out, removed } = stripWireCacheControl(positions, wire);
        expect({ wire: out, removed }).toEqual(reference(positions, wire));
        // The client's body itself is never changed.
        expect(wire).toEqual(before);
      }),
    );
  });
});

describe("canonicalCacheControlPaths", () => {
  it("finds boundaries on system, parts, tool-result blocks, tools and in extras", () => {
    const request: Request = {
      model: "m",
      system: [{ type: "text", text: "s", cacheControl: { type: "ephemeral" } }],
      messages: [
        {
          role: "tool",
          parts: [
            {
              type: "tool-result",
              toolCallId: "c",
              content: [{ type: "text", text: "r", cacheControl: { type: "ephemeral" } }],
            },
          ],
        },
      ],
      sampling: {},
      tools: [{ type: "function", name: "f", parameters: {}, cacheControl: { type: "ephemeral" } }],
      stream: false,
      extras: { messages: { cache_control: MARK } },
    };
    expect(canonicalCacheControlPaths(request)).toEqual([
      "system[0].cacheControl",
      "messages[0].parts[0].content[0].cacheControl",
      "tools[0].cacheControl",
      "extras.messages.cache_control",
    ]);
  });
});
