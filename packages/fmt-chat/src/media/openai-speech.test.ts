import { GatewayError } from "@interlingua/errors";
import { describe, expect, it } from "vitest";
import {
  countCharacters,
  parseSpeechRequest,
  renderSpeechRequest,
  SPEECH_CONTENT_TYPES,
  SPEECH_FORMATS,
  SPEECH_VOICES,
} from "./openai-speech.js";

const base = { model: "txtA-4o-mini-tts", input: "Hello there", voice: "alloy" };

function refusal(body: unknown): GatewayError {
  try {
    parseSpeechRequest(body);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error("accepted");
}

describe("parseSpeechRequest", () => {
  it("applies the defaults: wav (the API reference's listed default) and speed 1", () => {
    expect(parseSpeechRequest(base)).toEqual({
      model: "txtA-4o-mini-tts",
      input: "Hello there",
      voice: "alloy",
      responseFormat: "wav",
      speed: 1,
      characters: 11,
    });
  });

  it("takes every voice and format, and speeds at both ends of the range", () => {
    for (const voice of SPEECH_VOICES)
      expect(parseSpeechRequest({ ...base, voice }).voice).toBe(voice);
    for (const format of SPEECH_FORMATS) {
      expect(parseSpeechRequest({ ...base, response_format: format }).responseFormat).toBe(format);
    }
    expect(parseSpeechRequest({ ...base, speed: 0.25 }).speed).toBe(0.25);
    expect(parseSpeechRequest({ ...base, speed: 4 }).speed).toBe(4);
  });

  it.each([
    [{ ...base, voice: "bob" }, "voice"],
    [{ ...base, voice: 3 }, "voice"],
    [{ ...base, response_format: "ogg" }, "response_format"],
    [{ ...base, response_format: null }, "response_format"],
    [{ ...base, speed: 0.24 }, "speed"],
    [{ ...base, speed: 4.01 }, "speed"],
    [{ ...base, speed: "1" }, "speed"],
    [{ ...base, input: "" }, "input"],
    [{ ...base, input: 42 }, "input"],
    [{ model: "m", voice: "alloy" }, "input"],
    [{ input: "x", voice: "alloy" }, "model"],
    [{ model: "m", input: "x" }, "voice"],
  ])("refuses %j with a 400 naming %s", (body, field) => {
    const error = refusal(body);
    expect(error.status).toBe(400);
    expect(error.type).toBe("invalid_request_error");
    expect(error.param).toBe(field);
    expect(error.message).toContain(field);
  });

  it("refuses a body that is not an object", () => {
    expect(refusal([base]).status).toBe(400);
    expect(refusal("x").status).toBe(400);
  });

  it("answers input over 4096 characters with 413 invalid_request_error, counting code points", () => {
    expect(parseSpeechRequest({ ...base, input: "a".repeat(4096) }).characters).toBe(4096);
    const error = refusal({ ...base, input: "a".repeat(4097) });
    expect(error.status).toBe(413);
    expect(error.type).toBe("invalid_request_error");
    expect(error.param).toBe("input");
    // 4096 emoji are 8192 UTF-16 units but 4096 characters.
    expect(parseSpeechRequest({ ...base, input: "😀".repeat(4096) }).characters).toBe(4096);
    expect(refusal({ ...base, input: "😀".repeat(4097) }).status).toBe(413);
  });
});

describe("countCharacters", () => {
  it("counts a surrogate pair once and a lone surrogate once", () => {
    expect(countCharacters("a😀b")).toBe(3);
    expect(countCharacters("\ud800x")).toBe(2);
    expect(countCharacters("")).toBe(0);
  });
});

describe("renderSpeechRequest", () => {
  it("names every field, the format explicitly, with the upstream model", () => {
    expect(
      renderSpeechRequest(parseSpeechRequest({ ...base, extra: 1 }), "gpt-4o-mini-tts"),
    ).toEqual({
      model: "gpt-4o-mini-tts",
      input: "Hello there",
      voice: "alloy",
      response_format: "wav",
      speed: 1,
    });
  });

  it("has a content type for each format", () => {
    for (const format of SPEECH_FORMATS) expect(SPEECH_CONTENT_TYPES[format]).toMatch(/^audio\//);
  });
});
