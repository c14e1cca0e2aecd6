import {
  type Message,
  type Part,
  type Request,
  stripCacheControl,
  type Warning,
} from "@interlingua/core-types";
import * as arb from "@interlingua/core-types/testing";
import { planAnthropic } from "@interlingua/fmt-messages/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cached } from "../test/analyses.js";
import { cacheControlPaths, canonical, chatRequest, text, userText } from "../test/requests.js";
import { analyzeCache } from "./analyze-cache.js";
import type { CachedAnalysis } from "./cache-analysis.js";

const plan = (request: Request, analysis: CachedAnalysis) => {
  const warnings: Warning[] = [];
  const out = planAnthropic(request, analysis, { onWarning: (w) => warnings.push(w) });
  return { out, warnings };
};

/** The warning for a breakpoint moved off a thinking block at `from` onto `to`. */
const movedTo = (from: string, to: string): Warning => ({
  type: "mapped",
  feature: `${from}.cacheControl`,
  message: `a thinking block cannot carry a cache breakpoint; it was put on ${to}`,
});

describe("planAnthropic", () => {
  it("puts exactly one breakpoint, with the ttl, on the boundary block and strips the rest", () => {
    const request = chatRequest([
      { role: "system", content: [text("rules", "1h")] },
      { role: "user", content: [text("doc", "1h"), text("question")] },
      { role: "assistant", content: [text("answer", "1h")] },
      { role: "user", content: "next" },
    ]);
    const analysis = analyzeCache(request, "chat") as CachedAnalysis;
    const { out, warnings } = plan(request, analysis);
    const expected = stripCacheControl(request);
    (expected.messages[1]!.parts[0] as { cacheControl?: unknown }).cacheControl = {
      type: "ephemeral",
      ttl: "1h",
    };
    expect(out).toEqual(expected);
    expect(cacheControlPaths(out)).toEqual(["messages[1].parts[0].cacheControl"]);
    expect(warnings).toEqual([]);
  });

  it("never marks a thinking block: the breakpoint moves to the nearest earlier block", () => {
    const messages: Message[] = [
      {
        role: "user",
        parts: [
          { type: "text", text: "doc" },
          { type: "text", text: "q" },
        ],
      },
      {
        role: "assistant",
        parts: [
          { type: "thinking", text: "hmm", signature: "sig" },
          { type: "redacted-thinking", data: "xx" },
        ],
      },
      userText("next"),
    ];
    const { out, warnings } = plan(
      canonical(messages),
      cached({ area: "messages", message: 1, part: 1 }, 2),
    );
    expect(cacheControlPaths(out)).toEqual(["messages[0].parts[1].cacheControl"]);
    expect(out.messages[0]!.parts[1]).toEqual({
      type: "text",
      text: "q",
      cacheControl: { type: "ephemeral", ttl: "5m" },
    });
    expect(out.messages[1]).toEqual(messages[1]);
    expect(warnings).toEqual([movedTo("messages[1].parts[1]", "messages[0].parts[1]")]);
  });

  it("a thinking boundary with no earlier carrier moves to a later block of the same message", () => {
    const messages: Message[] = [
      userText("q"),
      {
        role: "assistant",
        parts: [
          { type: "thinking", text: "hmm", signature: "sig" },
          { type: "tool-call", id: "c1", name: "w", arguments: "{}" },
          { type: "redacted-thinking", data: "xx" },
        ],
      },
      { role: "tool", parts: [{ type: "tool-result", toolCallId: "c1", content: [] }] },
    ];
    const { out, warnings } = plan(
      canonical(messages),
      cached({ area: "messages", message: 1, part: 0 }, 2),
    );
    expect(cacheControlPaths(out)).toEqual(["messages[1].parts[1].cacheControl"]);
    expect(warnings).toEqual([movedTo("messages[1].parts[0]", "messages[1].parts[1]")]);
  });

  it("falls back to the system text when the prefix messages hold only thinking", () => {
    const request = canonical(
      [{ role: "assistant", parts: [{ type: "thinking", text: "hmm" }] }, userText("next")],
      {
        system: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      },
    );
    const { out } = plan(request, cached({ area: "messages", message: 0, part: 0 }, 1, "1h"));
    expect(cacheControlPaths(out)).toEqual(["system[1].cacheControl"]);
    expect(out.system[1]).toEqual({
      type: "text",
      text: "b",
      cacheControl: { type: "ephemeral", ttl: "1h" },
    });
  });

  it("reports and places nothing when no block of the prefix can carry a breakpoint", () => {
    const request = canonical([
      { role: "assistant", parts: [{ type: "thinking", text: "hmm" }] },
      userText("next"),
    ]);
    const { out, warnings } = plan(request, cached({ area: "messages", message: 0, part: 0 }, 1));
    expect(out).toEqual(request);
    expect(warnings.map((w) => w.type)).toEqual(["dropped"]);
  });

  it("a boundary inside a tool result marks the tool result block", () => {
    const request = chatRequest([
      { role: "user", content: "w?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "w", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c1", content: [text("sunny", "5m")] },
      { role: "user", content: "ok" },
    ]);
    const { out } = plan(request, analyzeCache(request, "chat") as CachedAnalysis);
    expect(cacheControlPaths(out)).toEqual(["messages[2].parts[0].cacheControl"]);
  });

  it("a system boundary marks that system block", () => {
    const request = chatRequest([
      { role: "system", content: [text("rules", "1h")] },
      { role: "user", content: "q" },
    ]);
    const { out } = plan(request, analyzeCache(request, "chat") as CachedAnalysis);
    expect(out.system).toEqual([
      { type: "text", text: "rules", cacheControl: { type: "ephemeral", ttl: "1h" } },
    ]);
    expect(cacheControlPaths(out)).toEqual(["system[0].cacheControl"]);
  });

  it("for any request and boundary: one breakpoint (within 4), never on thinking, inside the prefix, input untouched", () => {
    fc.assert(
      fc.property(
        arb.request.filter((r) => r.messages.length >= 2),
        fc.nat(),
        fc.nat(),
        fc.constantFrom<"5m" | "1h">("5m", "1h"),
        (request, m, p, ttl) => {
          const message = m % (request.messages.length - 1);
          const before = structuredClone(request);
          const analysis = cached({ area: "messages", message, part: p % 4 }, message + 1, ttl);
          const { out } = plan(request, analysis);
          expect(request).toEqual(before);
          const paths = cacheControlPaths(out);
          expect(paths.length).toBeLessThanOrEqual(1);
          const carriers = [
            ...request.system,
            ...request.messages.slice(0, message + 1).flatMap((x) => x.parts as Part[]),
          ].filter((part) => part.type !== "thinking" && part.type !== "redacted-thinking");
          expect(paths.length).toBe(carriers.length > 0 ? 1 : 0);
          const marked = [
            ...out.system.map((part, i) => ({ part: part as Part, at: -1, i })),
            ...out.messages.flatMap((x, at) =>
              (x.parts as Part[]).map((part, i) => ({ part, at, i })),
            ),
          ].filter(({ part }) => "cacheControl" in part && part.cacheControl !== undefined);
          for (const { part, at } of marked) {
            expect(part.type).not.toMatch(/thinking/);
            expect(at).toBeLessThanOrEqual(message);
            expect((part as { cacheControl: unknown }).cacheControl).toEqual({
              type: "ephemeral",
              ttl,
            });
          }
        },
      ),
    );
  });
});
