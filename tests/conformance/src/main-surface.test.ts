import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packagesDir } from "./packages.js";

// Issue 30 point 5: a format package's main entry is its codec(s), the request/response parse
// and render functions, the stream decoder and encoder, and the error pair; tables and helpers
// live at `./tables`. Adding a runtime name to a main entry is a decision: change this list.
const mainEntries: Record<string, string[]> = {
  "fmt-chat": [
    "ChatStreamDecoder",
    "ChatStreamEncoder",
    "chat",
    "chatRequestToCanonical",
    "chatResponseToCanonical",
    "decodeChatMessages",
    "decodeChatStream",
    "encodeChatEvents",
    "encodeChatStream",
    "parseChatRequest",
    "parseChatResponse",
    "renderChatRequest",
    "renderChatResponse",
  ],
  "fmt-messages": [
    "MessagesStreamDecoder",
    "MessagesStreamEncoder",
    "decodeMessagesStream",
    "encodeMessagesStream",
    "messages",
    "parseAnthropicError",
    "parseMessagesError",
    "parseMessagesRequest",
    "parseMessagesResponse",
    "renderMessagesError",
    "renderMessagesRequest",
    "renderMessagesResponse",
  ],
  "fmt-native": [
    "NativeStreamDecoder",
    "NativeStreamEncoder",
    "decodeNativeStream",
    "encodeNativeStream",
    "native",
    "parseGeminiError",
    "parseNativeError",
    "parseNativeRequest",
    "parseNativeResponse",
    "renderNativeError",
    "renderNativeRequest",
    "renderNativeResponse",
    "renderNativeUpstreamRequest",
  ],
  "fmt-responses": [
    "ResponsesStreamDecoder",
    "ResponsesStreamEncoder",
    "decodeResponsesEvents",
    "decodeResponsesStream",
    "encodeResponsesEvents",
    "encodeResponsesStream",
    "errorFromResponsesWire",
    "errorToResponsesWire",
    "interlinguaResponses",
    "parseInterlinguaResponsesResponse",
    "parseResponsesObject",
    "parseResponsesRequest",
    "parseResponsesResponse",
    "renderInterlinguaResponsesRequest",
    "renderInterlinguaResponsesResponse",
    "renderResponsesRequest",
    "renderResponsesResponse",
    "responses",
  ],
};

const names = (module: object) => Object.keys(module).sort();

describe.each(Object.keys(mainEntries))("@interlingua/%s", (dir) => {
  const id = `@interlingua/${dir}`;

  it("main entry exports exactly the codec surface", async () => {
    expect(names(await import(id))).toEqual([...mainEntries[dir]!].sort());
  });

  it("./tables repeats nothing from the main entry, and its README names every export", async () => {
    const tables = names(await import(`${id}/tables`));
    expect(tables.length).toBeGreaterThan(0);
    expect(tables.filter((n) => mainEntries[dir]!.includes(n))).toEqual([]);
    const readme = readFileSync(join(packagesDir, dir, "README.md"), "utf8");
    expect(tables.filter((n) => !readme.includes(`\`${n}`))).toEqual([]);
  });
});
