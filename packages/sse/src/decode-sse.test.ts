import { describe, expect, it } from "vitest";
import { decodeChunks, utf8 } from "../test/streams.js";
import { decodeSse, decodeSseText, type SseEvent } from "./index.js";
import { readAll, readableOf, splitBytes } from "./testing.js";

const decoded = (text: string, options?: Parameters<typeof decodeSseText>[1]) =>
  decodeSseText(text, options);

describe("decodeSseText", () => {
  it.each<[string, string, SseEvent[]]>([
    ["LF", "data: a\n\ndata: b\n\n", [{ data: "a" }, { data: "b" }]],
    ["CRLF", "data: a\r\n\r\ndata: b\r\n\r\n", [{ data: "a" }, { data: "b" }]],
    ["CR", "data: a\r\rdata: b\r\r", [{ data: "a" }, { data: "b" }]],
    ["mixed line ends", "data: a\r\ndata: b\rdata: c\n\n", [{ data: "a\nb\nc" }]],
    ["no space after the colon", "data:x\n\n", [{ data: "x" }]],
    ["only one space is stripped", "data:  x\n\n", [{ data: " x" }]],
    ["a bare field name is an empty value", "data\n\n", [{ data: "" }]],
    ["event and id", "event: e\nid: 7\ndata: x\n\n", [{ event: "e", id: "7", data: "x" }]],
    ["an empty event is the default type", "event:\ndata: x\n\n", [{ data: "x" }]],
    ["an empty id is kept", "id:\ndata: x\n\n", [{ id: "", data: "x" }]],
    ["an id with NULL is ignored", "id: a\0b\ndata: x\n\n", [{ data: "x" }]],
    [
      "the id belongs to its own block",
      "id: 1\ndata: a\n\ndata: b\n\n",
      [{ id: "1", data: "a" }, { data: "b" }],
    ],
    ["retry rides on its event", "retry: 5000\ndata: x\n\n", [{ retry: 5000, data: "x" }]],
    ["a bad retry is ignored", "retry: 5s\ndata: x\n\n", [{ data: "x" }]],
    [
      "a data-less retry rides on the next event",
      "retry: 10\n\ndata: x\n\n",
      [{ retry: 10, data: "x" }],
    ],
    ["unknown fields are ignored", "foo: bar\ndata: x\n\n", [{ data: "x" }]],
    ["a block without data dispatches nothing", "event: e\nid: 1\n\n", []],
    ["comments dispatch nothing", ": keep-alive\n\n:x\n\n", []],
    ["a comment inside a block", "data: a\n: ping\ndata: b\n\n", [{ data: "a\nb" }]],
    ["one leading BOM is stripped", "\uFEFFdata: x\n\n", [{ data: "x" }]],
    ["a second BOM is part of the first line", "\uFEFF\uFEFFdata: x\n\n", []],
    ["[DONE] is an ordinary event", "data: [DONE]\n\n", [{ data: "[DONE]" }]],
  ])("%s", (_name, text, events) => {
    expect(decoded(text)).toEqual(events);
  });

  it.each([
    ["no blank line", "data: a\n\ndata: b\n"],
    ["no line end at all", "data: a\n\ndata: b"],
    ["a half-written CRLF blank line", "data: a\n\ndata: b\r\n\r"],
  ])("discards a final event with %s, as the standard says", (_name, text) => {
    // The CR case is the one exception worth knowing: a lone CR is already a line end.
    const events = decoded(text);
    expect(events[0]).toEqual({ data: "a" });
    expect(events.length).toBe(text.endsWith("\r\n\r") ? 2 : 1);
  });

  it("reports comments and retry values as they are read", () => {
    const comments: string[] = [];
    const retries: number[] = [];
    decoded(": keep-alive\n:  two spaces\n:\nretry: 3000\n\n", {
      onComment: (c) => comments.push(c),
      onRetry: (r) => retries.push(r),
    });
    expect(comments).toEqual(["keep-alive", " two spaces", ""]);
    expect(retries).toEqual([3000]);
  });

  it("throws past maxBufferSize instead of buffering without bound", () => {
    expect(() => decoded(`data: ${"x".repeat(2000)}`, { maxBufferSize: 1000 })).toThrow(
      /max buffer size/,
    );
    expect(decoded(`data: ${"x".repeat(900)}\n\n`, { maxBufferSize: 1000 })).toHaveLength(1);
  });
});

describe("decodeSse", () => {
  it("reads a CR at a chunk's end and the LF starting the next as one line end", async () => {
    expect(await decodeChunks(["data: a\r", "\ndata: b\r", "\n\r", "\n"])).toEqual([
      { data: "a\nb" },
    ]);
  });

  it("joins multi-byte characters cut anywhere", async () => {
    const bytes = utf8.encode("event: é\ndata: 😀€ü\n\n");
    for (let cut = 0; cut <= bytes.length; cut++) {
      expect(await decodeChunks(splitBytes(bytes, [cut, cut + 1]))).toEqual([
        { event: "é", data: "😀€ü" },
      ]);
    }
  });

  it("strips a BOM cut across chunks", async () => {
    const bytes = utf8.encode("\uFEFFdata: x\n\n");
    expect(await decodeChunks(splitBytes(bytes, [1, 2]))).toEqual([{ data: "x" }]);
  });

  it("accepts text and byte chunks mixed", async () => {
    expect(await decodeChunks([utf8.encode("data: a"), "b\n", utf8.encode("\n")])).toEqual([
      { data: "ab" },
    ]);
  });

  it("emits each event as soon as its blank line arrives", async () => {
    const { readable, writable } = decodeSse();
    const writer = writable.getWriter();
    const reader = readable.getReader();
    void writer.write(utf8.encode("data: first\n\ndata: sec"));
    expect((await reader.read()).value).toEqual({ data: "first" });
    void writer.write(utf8.encode("ond\n\n"));
    expect((await reader.read()).value).toEqual({ data: "second" });
    void writer.close();
    expect((await reader.read()).done).toBe(true);
  });

  it("discards an unterminated final event at the end of the stream", async () => {
    expect(await decodeChunks(["data: a\n\n", "data: cut in ha"])).toEqual([{ data: "a" }]);
  });

  it("errors the stream past maxBufferSize", async () => {
    const source = readableOf([`data: ${"x".repeat(600)}`, "x".repeat(600)]);
    await expect(readAll(source.pipeThrough(decodeSse({ maxBufferSize: 1000 })))).rejects.toThrow(
      /max buffer size/,
    );
  });

  it("passes comments to onComment", async () => {
    const comments: string[] = [];
    const events = await decodeChunks([": keep-alive\n\ndata: x\n\n"], {
      onComment: (c) => comments.push(c),
    });
    expect(events).toEqual([{ data: "x" }]);
    expect(comments).toEqual(["keep-alive"]);
  });
});
