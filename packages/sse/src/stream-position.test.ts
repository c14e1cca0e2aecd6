import { describe, expect, it } from "vitest";
import { utf8 } from "../test/streams.js";
import { type StreamPosition, StreamPositionTracker } from "./stream-position.js";

const after = (...chunks: string[]) => {
  const tracker = new StreamPositionTracker();
  for (const chunk of chunks) tracker.observe(utf8.encode(chunk));
  return { position: tracker.position, lineEnding: tracker.lineEnding };
};

describe("where a byte stream stands", () => {
  it.each<[string, string[], StreamPosition, "\n" | "\r\n"]>([
    ["before any byte", [], "frame", "\n"],
    ["after LF LF", ["data: a\n\n"], "frame", "\n"],
    ["after CRLF CRLF", ["data: a\r\n\r\n"], "frame", "\r\n"],
    ["after CR CR (an LF may follow, a harmless blank line)", ["data: a\r\r"], "frame", "\n"],
    ["after a blank line ended by CR", ["data: a\r\n\r"], "frame", "\n"],
    ["after CR then CRLF", ["data: a\r\r\n"], "frame", "\r\n"],
    ["after a line inside a frame", ["data: a\n"], "line", "\n"],
    ["after a CRLF line inside a frame", ["data: a\r\n"], "line", "\r\n"],
    ["after a CR whose LF may follow", ["data: a\r"], "inside", "\n"],
    ["mid-line", ["data: a\n\ndata"], "inside", "\n"],
    ["a blank line split across one-byte chunks", ["data: a\r", "\n", "\r", "\n"], "frame", "\r\n"],
    ["a line end split across chunks", ["data: a", "\r", "\n"], "line", "\r\n"],
  ])("%s", (_name, chunks, position, lineEnding) => {
    expect(after(...chunks)).toEqual({ position, lineEnding });
  });
});
