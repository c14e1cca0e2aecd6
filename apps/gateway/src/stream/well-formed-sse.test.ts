import { describe, expect, it } from "vitest";
import { startsLikeSse, wellEndedFrames, wellFormedData } from "./well-formed-sse.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("startsLikeSse", () => {
  it.each([
    "data: {}\n\n",
    "event: message_start\ndata: {}\n\n",
    ": keep-alive\n\n",
    "\n\ndata: {}",
    "\uFEFFdata: {}",
    "id: 1\n",
    "retry: 10\n",
    "dat",
    "",
  ])("accepts %j", (text) => expect(startsLikeSse(bytes(text))).toBe(true));

  it.each([
    '{"id":"chatcmpl-1","choices":[]}',
    "[{}]",
    "<!DOCTYPE html><html>",
    "<html>",
    "Internal Server Error",
    "datum: x\n",
    "error: x\n",
  ])("refuses %j", (text) => expect(startsLikeSse(bytes(text))).toBe(false));
});

describe("wellFormedData", () => {
  it("passes JSON-shaped data, [DONE] and empty data; refuses data cut short or not JSON", () => {
    for (const ok of ['{"a":1}', "[1]", "[DONE]", ""]) expect(wellFormedData(ok), ok).toBe(true);
    for (const bad of ['{"a":"b', "<html>", "hello", '{"a":1', "1"]) {
      expect(wellFormedData(bad), bad).toBe(false);
    }
  });
});

describe("wellEndedFrames", () => {
  const frame = (data: string) => `data: ${data}\n\n`;
  it("checks the last data line of each whole frame, in LF and CRLF streams", () => {
    const good = frame('{"a":1}') + ": comment\n\n" + `event: x\n${frame("[DONE]")}`;
    expect(wellEndedFrames(good, 0, good.length, "\n\n")).toBe(true);
    const cut = frame('{"a":1}') + frame('{"a":"b');
    expect(wellEndedFrames(cut, 0, cut.length, "\n\n")).toBe(false);
    const crlf = 'data: {"a":1}\r\n\r\ndata: {"a":2}\r\n\r\n';
    expect(wellEndedFrames(crlf, 0, crlf.length, "\r\n\r\n")).toBe(true);
    const crlfCut = 'data: {"a":1}\r\n\r\ndata: {"a\r\n\r\n';
    expect(wellEndedFrames(crlfCut, 0, crlfCut.length, "\r\n\r\n")).toBe(false);
  });

  it("looks only between from and to", () => {
    const text = frame('{"a":1}') + frame('{"cut');
    expect(wellEndedFrames(text, 0, frame('{"a":1}').length, "\n\n")).toBe(true);
  });
});
