import { describe, expect, it } from "vitest";
import { isSpeechAudio } from "./speech-audio-bytes.js";

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(
    parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)),
  );

// Issue 26, item 4: a 2xx speech reply that is not audio is never relayed as audio.
describe("isSpeechAudio", () => {
  it.each([
    ["wav", bytes("RIFF", [0x24, 0, 0, 0], "WAVEfmt ")],
    ["opus", bytes("OggS", [0, 2])],
    ["flac", bytes("fLaC", [0, 0, 0, 0x22])],
    ["aac", bytes([0xff, 0xf1, 0x50, 0x80])],
    ["mp3", bytes("ID3", [4, 0])],
    ["mp3", bytes([0xff, 0xfb, 0x90, 0x64])],
    ["pcm", bytes([0x00, 0x01, 0xfe, 0xff])],
  ])("%s audio passes", (format, first) => {
    expect(isSpeechAudio(format, first, "audio/whatever")).toBe(true);
  });

  it.each(["wav", "opus", "aac", "flac", "pcm", "mp3"])(
    "%s: an HTML page or a JSON body is refused, whatever its media type says",
    (format) => {
      const html = bytes("<!DOCTYPE html><html><body>Authorization: Bearer sk-...</body></html>");
      expect(isSpeechAudio(format, html, "audio/wav")).toBe(false);
      expect(isSpeechAudio(format, bytes('{"echo":"x"}'))).toBe(false);
      expect(isSpeechAudio(format, bytes("RIFF"), "text/html; charset=utf-8")).toBe(false);
      expect(isSpeechAudio(format, new Uint8Array(0))).toBe(false);
    },
  );

  it("a wav without its WAVE mark is not wav", () => {
    expect(isSpeechAudio("wav", bytes("RIFF", [0, 0, 0, 0], "AVI LIST"))).toBe(false);
  });
});
