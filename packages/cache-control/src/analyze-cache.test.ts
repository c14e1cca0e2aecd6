import type { Request } from "@interlingua/core-types";
import { GatewayError } from "@interlingua/errors";
import { describe, expect, it } from "vitest";
import { cached, ordinary } from "../test/analyses.js";
import { canonical, cc, chatRequest, nativeRequest, text, userText } from "../test/requests.js";
import { analyzeCache } from "./analyze-cache.js";

const doc = "A long reference document. ".repeat(20);

function thrown(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error("expected a GatewayError");
}

describe("rule 1: boundary placement", () => {
  it("chat: the boundary on a content block of the last stable message caches through it", () => {
    const request = chatRequest([
      { role: "system", content: "You are terse." },
      { role: "user", content: [text(doc), text("Summarise it.", null)] },
      { role: "assistant", content: "It is about caching." },
      { role: "user", content: "And the details?" },
    ]);
    expect(analyzeCache(request, "chat")).toEqual(
      cached({ area: "messages", message: 0, part: 1 }, 1),
    );
  });

  it("chat: a boundary inside a tool message's content is found on the tool result", () => {
    const request = chatRequest([
      { role: "user", content: "Weather?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c1", type: "function", function: { name: "weather", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: [text("sunny", "1h")] },
      { role: "user", content: "Thanks" },
    ]);
    expect(analyzeCache(request, "chat")).toEqual(
      cached({ area: "messages", message: 2, part: 0, content: 0 }, 3, "1h"),
    );
  });

  it("chat: a boundary on a system message caches the system text alone", () => {
    const request = chatRequest([
      { role: "system", content: [text(doc, "1h")] },
      { role: "user", content: "Question?" },
    ]);
    expect(analyzeCache(request, "chat")).toEqual(cached({ area: "system", part: 0 }, 0, "1h"));
  });

  it("native: the boundary on a part inside contents[].parts[] caches through its content", () => {
    const request = nativeRequest({
      systemInstruction: { parts: [{ text: "You are terse." }] },
      contents: [
        { role: "user", parts: [{ text: doc }, { text: "Summarise.", cache_control: cc() }] },
        { role: "model", parts: [{ text: "It is about caching." }] },
        { role: "user", parts: [{ text: "And the details?" }] },
      ],
    });
    expect(analyzeCache(request, "native")).toEqual(
      cached({ area: "messages", message: 0, part: 1 }, 1),
    );
  });

  it("native: a boundary from systemInstruction is ignored and reported", () => {
    const request = canonical([userText(doc), userText("Question?")], {
      system: [{ type: "text", text: "Be terse.", cacheControl: { type: "ephemeral" } }],
    });
    expect(analyzeCache(request, "native")).toEqual({
      mode: "none",
      warnings: [
        {
          type: "dropped",
          feature: "system[0].cacheControl",
          message: "a cache boundary never sits inside systemInstruction; it was ignored",
        },
      ],
    });
  });

  it("native: a systemInstruction boundary does not hide a boundary in contents", () => {
    const request = canonical(
      [
        { role: "user", parts: [{ type: "text", text: doc, cacheControl: cc("1h") as never }] },
        userText("Question?"),
      ],
      { system: [{ type: "text", text: "Be terse.", cacheControl: { type: "ephemeral" } }] },
    );
    const analysis = analyzeCache(request, "native");
    expect(analysis.mode).toBe("cached");
    expect(analysis).toMatchObject({ ttl: "1h", prefixMessages: 1 });
    expect(analysis.warnings.map((w) => w.feature)).toEqual(["system[0].cacheControl"]);
  });

  it("no boundary anywhere is mode none", () => {
    const request = chatRequest([{ role: "user", content: "Hi" }]);
    expect(analyzeCache(request, "chat")).toEqual({ mode: "none", warnings: [] });
  });
});

describe("rule 2: ordinary mode", () => {
  it("chat: a boundary on the last message leaves nothing live, so the request runs ordinary", () => {
    const request = chatRequest([
      { role: "user", content: "Earlier" },
      { role: "assistant", content: "Reply" },
      { role: "user", content: [text(doc, "1h")] },
    ]);
    expect(analyzeCache(request, "chat")).toEqual(
      ordinary({ area: "messages", message: 2, part: 0 }, "1h"),
    );
  });

  it("native: a boundary in the last content runs ordinary", () => {
    const request = nativeRequest({
      contents: [{ role: "user", parts: [{ text: doc, cache_control: cc() }] }],
    });
    expect(analyzeCache(request, "native")).toEqual(
      ordinary({ area: "messages", message: 0, part: 0 }),
    );
  });

  it("a boundary on an earlier part of the last message still leaves nothing live", () => {
    const request = chatRequest([
      { role: "user", content: "Earlier" },
      { role: "assistant", content: "Reply" },
      { role: "user", content: [text(doc, "5m"), text("question")] },
    ]);
    expect(analyzeCache(request, "chat").mode).toBe("ordinary");
  });
});

describe("rule 5: several boundaries share one ttl; the last one is used", () => {
  it("chat: the last of three boundaries is the boundary", () => {
    const request = chatRequest([
      { role: "system", content: [text("Rules", "1h")] },
      { role: "user", content: [text(doc, "1h")] },
      { role: "assistant", content: "ok" },
      { role: "user", content: [text("more", "1h"), text("context")] },
      { role: "assistant", content: "ok" },
      { role: "user", content: "Now answer." },
    ]);
    expect(analyzeCache(request, "chat")).toEqual(
      cached({ area: "messages", message: 2, part: 0 }, 3, "1h"),
    );
  });

  it("native: an omitted ttl and an explicit 5m are the same ttl", () => {
    const request = nativeRequest({
      contents: [
        { role: "user", parts: [{ text: doc, cache_control: cc() }] },
        { role: "model", parts: [{ text: "ok", cache_control: cc("5m") }] },
        { role: "user", parts: [{ text: "Now answer." }] },
      ],
    });
    expect(analyzeCache(request, "native")).toEqual(
      cached({ area: "messages", message: 1, part: 0 }, 2),
    );
  });
});

describe("rule 6: a bad or mixed ttl is a 400 naming the field", () => {
  it("chat: mixed ttls name the first differing block in chat wire terms", () => {
    const request = chatRequest([
      { role: "system", content: "You are terse." },
      { role: "user", content: [text(doc, "5m")] },
      { role: "assistant", content: "ok" },
      { role: "user", content: [text("context"), text("more", "1h")] },
      { role: "user", content: "Answer." },
    ]);
    const error = thrown(() => analyzeCache(request, "chat"));
    expect(error.status).toBe(400);
    expect(error.type).toBe("invalid_request_error");
    expect(error.param).toBe("messages[3].content[1].cache_control.ttl");
    expect(error.message).toBe(
      'messages[3].content[1].cache_control.ttl: all cache boundaries must share one ttl; this one is "1h" but messages[1].content[0].cache_control is "5m"',
    );
  });

  it("native: mixed ttls name contents[].parts[] (an omitted ttl counts as 5m)", () => {
    const request = nativeRequest({
      contents: [
        { role: "user", parts: [{ text: doc, cache_control: cc() }] },
        { role: "model", parts: [{ text: "ok" }] },
        { role: "user", parts: [{ text: "more", cache_control: cc("1h") }] },
        { role: "user", parts: [{ text: "Answer." }] },
      ],
    });
    const error = thrown(() => analyzeCache(request, "native"));
    expect(error.status).toBe(400);
    expect(error.param).toBe("contents[2].parts[0].cache_control.ttl");
  });

  it("chat: 10m is refused by the chat parser, naming the field", () => {
    const error = thrown(() =>
      chatRequest([
        { role: "user", content: "a" },
        { role: "user", content: [text(doc, "10m")] },
        { role: "user", content: "b" },
      ]),
    );
    expect(error.status).toBe(400);
    expect(error.param).toBe("messages[1].content[0].cache_control.ttl");
  });

  it("native: 10m is refused by the native parser, naming the field", () => {
    const error = thrown(() =>
      nativeRequest({
        contents: [
          { role: "user", parts: [{ text: doc }, { text: "x", cache_control: cc("10m") }] },
          { role: "user", parts: [{ text: "b" }] },
        ],
      }),
    );
    expect(error.status).toBe(400);
    expect(error.param).toBe("contents[0].parts[1].cache_control.ttl");
  });

  it("a request built without a parser still gets 10m refused, in the client's wire terms", () => {
    const request: Request = canonical([
      userText("first"),
      {
        role: "assistant",
        parts: [
          { type: "redacted-thinking", data: "xx" },
          { type: "text", text: "ok", cacheControl: { type: "ephemeral", ttl: "10m" as "5m" } },
        ],
      },
      userText("last"),
    ]);
    const chat = thrown(() => analyzeCache(request, "chat"));
    expect([chat.status, chat.param]).toEqual([400, "messages[1].content[0].cache_control.ttl"]);
    expect(chat.message).toBe(
      'messages[1].content[0].cache_control.ttl: cache_control.ttl must be "5m" or "1h", got "10m"',
    );
    const native = thrown(() => analyzeCache(request, "native"));
    expect([native.status, native.param]).toEqual([400, "contents[1].parts[0].cache_control.ttl"]);
  });

  it("a type other than ephemeral is refused", () => {
    const request = canonical([
      {
        role: "user",
        parts: [{ type: "text", text: "x", cacheControl: { type: "forever" as "ephemeral" } }],
      },
      userText("last"),
    ]);
    const error = thrown(() => analyzeCache(request, "native"));
    expect([error.status, error.param]).toEqual([400, "contents[0].parts[0].cache_control.type"]);
  });

  it("the ttl check runs even when the native request names its own cachedContent", () => {
    const request = nativeRequest({
      cachedContent: "cachedContents/abc",
      contents: [
        { role: "user", parts: [{ text: doc, cache_control: cc("1h") }] },
        { role: "user", parts: [{ text: "x", cache_control: cc("5m") }] },
        { role: "user", parts: [{ text: "Answer." }] },
      ],
    });
    expect(thrown(() => analyzeCache(request, "native")).param).toBe(
      "contents[1].parts[0].cache_control.ttl",
    );
  });
});

describe("rule 8: an explicit cachedContent is forwarded, no automatic cache", () => {
  it("native: cachedContent and no boundary is mode explicit", () => {
    const request = nativeRequest({
      cachedContent: "cachedContents/abc",
      contents: [{ role: "user", parts: [{ text: "Question?" }] }],
    });
    expect(analyzeCache(request, "native")).toEqual({
      mode: "explicit",
      cachedContent: "cachedContents/abc",
      warnings: [],
    });
  });

  it("native: boundaries next to cachedContent create nothing and are reported", () => {
    const request = nativeRequest({
      cachedContent: "cachedContents/abc",
      contents: [
        { role: "user", parts: [{ text: doc, cache_control: cc() }] },
        { role: "user", parts: [{ text: "Question?" }] },
      ],
    });
    expect(analyzeCache(request, "native")).toEqual({
      mode: "explicit",
      cachedContent: "cachedContents/abc",
      warnings: [
        {
          type: "dropped",
          feature: "cacheControl",
          message:
            "the request names cachedContent cachedContents/abc; its cache boundaries create no cache",
        },
      ],
    });
  });
});

describe("tool-call and wire-path mapping", () => {
  it("chat: an assistant's text block index skips reasoning; tool calls are named as tool_calls", () => {
    const base = [
      { role: "system", content: "s1" },
      { role: "system", content: "s2" },
      {
        role: "assistant",
        reasoning_content: "thinking...",
        content: [text("a", "5m"), text("b", "1h")],
      },
      { role: "user", content: "q" },
    ];
    expect(thrown(() => analyzeCache(chatRequest(base), "chat")).param).toBe(
      "messages[2].content[1].cache_control.ttl",
    );
    const viaTool = canonical([
      {
        role: "assistant",
        parts: [
          { type: "text", text: "x", cacheControl: { type: "ephemeral" } },
          { type: "tool-call", id: "a", name: "f", arguments: "{}" },
          {
            type: "tool-call",
            id: "b",
            name: "g",
            arguments: "{}",
            cacheControl: cc("1h") as never,
          },
        ],
      },
      userText("q"),
    ]);
    expect(thrown(() => analyzeCache(viaTool, "chat")).param).toBe(
      "messages[0].tool_calls[1].cache_control.ttl",
    );
  });

  it("chat: merged tool messages map back to one wire message per result", () => {
    const request = chatRequest([
      { role: "user", content: [text("q", "5m")] },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c1", type: "function", function: { name: "a", arguments: "{}" } },
          { id: "c2", type: "function", function: { name: "b", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "one" },
      { role: "tool", tool_call_id: "c2", content: [text("x"), text("two", "1h")] },
      { role: "user", content: "go" },
    ]);
    expect(thrown(() => analyzeCache(request, "chat")).param).toBe(
      "messages[3].content[1].cache_control.ttl",
    );
  });
});
