import { readFileSync } from "node:fs";
import { accumulateStream, type SseMessage } from "@interlingua/core-types";
import { GatewayError } from "@interlingua/errors";
import { describe, expect, it } from "vitest";
import { normalizeResponsesResponse } from "./normalize-responses-api.js";
import { decodeResponsesEvents } from "./parse-responses-stream.js";
import { encodeResponsesEvents } from "./render-responses-stream.js";
import { responses } from "./responses-api-codec.js";

/** The real OpenAI Responses recordings in fixtures/openai-responses (licence in fixtures/). */
const read = (name: string): string =>
  readFileSync(new URL(`../../../fixtures/openai-responses/${name}`, import.meta.url), "utf8");
const isJson = (line: string): boolean => {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
};
/**
 * A recording's responses, one frame list each: the recordings hold several responses back to
 * back, and the parallel-call one two frames that are not JSON (a 502 error event, tested in
 * parse-responses-stream.test.ts), left out here.
 */
const responsesIn = (name: string): SseMessage[][] => {
  const out: SseMessage[][] = [];
  for (const data of read(name)
    .split("\n")
    .filter((line) => isJson(line))) {
    if (JSON.parse(data).type === "response.created" || out.length === 0) out.push([]);
    out[out.length - 1]?.push({ data });
  }
  return out;
};

describe("responses on the real recordings", () => {
  it("a reasoning response: parse -> render keeps the encrypted_content byte for byte", () => {
    const wire = JSON.parse(read("openai-reasoning-encrypted-content.1.json"));
    const canonical = responses.response.parse(wire);
    const rendered = responses.response.render(canonical);
    const reasoning = wire.output.find((item: { type: string }) => item.type === "reasoning");
    expect(rendered.output[0]).toMatchObject({
      type: "reasoning",
      encrypted_content: reasoning.encrypted_content,
    });
    // The recording predates cache_write_tokens, which OpenAI's schema now requires (0 here).
    expect(rendered.usage).toEqual({
      ...wire.usage,
      input_tokens_details: { ...wire.usage.input_tokens_details, cache_write_tokens: 0 },
    });
    expect(rendered.status).toBe("completed");
    expect(rendered.output_text).toBe(wire.output[1].content[0].text);
    expect(rendered).toEqual(normalizeResponsesResponse(wire));
    expect(responses.response.parse(rendered)).toEqual(canonical);
  });

  it("the parallel-call wrapper expands into the calls it stands for", () => {
    const canonical = responses.response.parse(
      JSON.parse(read("parallel-tool-call-wrapper.1.json")),
    );
    const rendered = responses.response.render(canonical);
    expect(rendered.output.map((item) => item["name"])).toEqual(["weather", "cityAttractions"]);
    expect(responses.response.parse(rendered)).toEqual(canonical);
  });

  it("an error body is thrown as the mapped upstream error", () => {
    const error = (() => {
      try {
        responses.response.parse(JSON.parse(read("openai-error.1.json")));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).status).toBe(502);
  });

  for (const name of [
    "openai-reasoning-encrypted-content.1.chunks.txt",
    "parallel-tool-call-wrapper.1.chunks.txt",
  ]) {
    it(`${name}: each response decodes, re-encodes and decodes again without loss`, () => {
      const recorded = responsesIn(name);
      expect(recorded.length).toBeGreaterThan(0);
      for (const frames of recorded) {
        // The parallel-call recording's lifecycle frames have no sequence_number: the decoder
        // reports each as a 502 error event (parse-responses-stream.test.ts) and goes on.
        const events = decodeResponsesEvents(frames).filter((e) => e.type !== "error");
        const content = events.filter((e) => e.type !== "response-start");
        expect(content.some((e) => e.type === "part-end")).toBe(true);
        // Where the terminal frame was one of those, the re-encoded stream ends with a default
        // finish of its own, which the comparison leaves out.
        const finished = events.some((e) => e.type === "finish");
        const again = decodeResponsesEvents(encodeResponsesEvents(events)).filter(
          (e) => e.type !== "response-start" && (finished || e.type !== "finish"),
        );
        expect(again).toEqual(content);
        // ... and the result object agrees with the stream (which needs its finish).
        if (!finished) continue;
        const accumulated = accumulateStream(events);
        const rendered = responses.response.render(accumulated);
        expect(responses.response.parse(rendered)).toEqual(accumulated);
      }
    });
  }
});
