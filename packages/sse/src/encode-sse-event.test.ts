import { describe, expect, it } from "vitest";
import { fromUtf8 } from "../test/streams.js";
import { encodeSse, encodeSseEvent, type SseFrame } from "./index.js";
import { readAll, readableOf } from "./testing.js";

describe("encodeSseEvent", () => {
  it.each<[string, SseFrame, string]>([
    ["data only", { data: "{}" }, "data: {}\n\n"],
    ["empty data", { data: "" }, "data: \n\n"],
    [
      "every field, in a fixed order",
      { retry: 3000, id: "7", data: "x", event: "message_start" },
      "event: message_start\nid: 7\nretry: 3000\ndata: x\n\n",
    ],
    ["one data line per line", { data: "a\n\nb" }, "data: a\ndata: \ndata: b\n\n"],
    [
      "CRLF and CR in data are line breaks too",
      { data: "a\r\nb\rc" },
      "data: a\ndata: b\ndata: c\n\n",
    ],
    ["leading space kept (the reader strips only one)", { data: " x" }, "data:  x\n\n"],
    ["empty id", { id: "", data: "x" }, "id: \ndata: x\n\n"],
    ["comment", { comment: "keep-alive" }, ": keep-alive\n\n"],
    ["multi-line comment", { comment: "a\nb" }, ": a\n: b\n\n"],
  ])("%s", (_name, frame, wire) => {
    expect(encodeSseEvent(frame)).toBe(wire);
  });

  it("writes CRLF line ends on request", () => {
    expect(encodeSseEvent({ event: "e", data: "a\nb" }, { lineEnding: "\r\n" })).toBe(
      "event: e\r\ndata: a\r\ndata: b\r\n\r\n",
    );
    expect(encodeSseEvent({ comment: "ping" }, { lineEnding: "\r\n" })).toBe(": ping\r\n\r\n");
  });

  it.each<[string, unknown, string]>([
    ["event with LF", { event: "a\ndata: injected", data: "" }, "SSE event has a line break"],
    ["event with CR", { event: "a\r", data: "" }, "SSE event has a line break"],
    ["id with LF", { id: "1\n", data: "" }, "SSE id has a line break"],
    ["id with NULL", { id: "1\0", data: "" }, "SSE id has a NULL character"],
    ["negative retry", { retry: -1, data: "" }, "SSE retry must be a non-negative integer"],
    ["fractional retry", { retry: 1.5, data: "" }, "SSE retry must be a non-negative integer"],
    ["NaN retry", { retry: Number.NaN, data: "" }, "SSE retry must be a non-negative integer"],
    ["data not a string", { data: 1 }, "SSE data must be a string"],
  ])("refuses %s", (_name, frame, message) => {
    expect(() => encodeSseEvent(frame as SseFrame)).toThrow(new TypeError(message));
  });
});

describe("encodeSse", () => {
  it("writes each frame as its own chunk", async () => {
    const frames: SseFrame[] = [{ data: "a" }, { comment: "c" }, { event: "e", data: "b" }];
    const chunks = await readAll(readableOf(frames).pipeThrough(encodeSse()));
    expect(chunks.map(fromUtf8)).toEqual(frames.map((f) => encodeSseEvent(f)));
  });

  it("hands a frame on at once, without waiting for the next", async () => {
    const { readable, writable } = encodeSse({ lineEnding: "\r\n" });
    const writer = writable.getWriter();
    const reader = readable.getReader();
    void writer.write({ data: "now" });
    expect(fromUtf8((await reader.read()).value!)).toBe("data: now\r\n\r\n");
    void writer.close();
    expect((await reader.read()).done).toBe(true);
  });

  it("errors the stream on a frame SSE cannot carry", async () => {
    const bad = readableOf<SseFrame>([{ data: "ok" }, { event: "x\ny", data: "" }]);
    await expect(readAll(bad.pipeThrough(encodeSse()))).rejects.toThrow(TypeError);
  });
});
