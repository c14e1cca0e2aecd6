import {
  accumulateStream,
  mapOutputs,
  normalizeStreamEvents,
  outputsOf,
  type Response,
  responseToEvents,
  type StreamEvent,
} from "@interlingua/core-types";
import * as canonical from "@interlingua/core-types/testing";
import { fc } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { decodeSse, encodeSseEvent } from "../test/sse.js";
import {
  parseInterlinguaResponsesResponse,
  parseResponsesObject,
} from "./parse-responses-response.js";
import { decodeResponsesEvents, decodeResponsesStream } from "./parse-responses-stream.js";
import { renderInterlinguaResponsesResponse } from "./render-responses-response.js";
import { encodeResponsesEvents } from "./render-responses-stream.js";
import { responses } from "./responses-api-codec.js";
import { responsesStreamEventSchema } from "./responses-stream-events.js";
import {
  expressibleInterlinguaResponse,
  expressibleResponse,
  expressibleStreamResponse,
} from "./testing.js";

// One block per codec: both share the stream (OpenAI's event sequence) and differ in the result
// law 4 compares it with.
const { response } = responses;

const roundTrip = (events: readonly StreamEvent[]) =>
  decodeResponsesEvents(encodeResponsesEvents(events));

describe("interlinguaResponses (the API reference's result shape)", () => {
  describe("law 3: decode(encode(events)) equals events", () => {
    // Logprobs ride on output_text parts: where they stand among the events is not the format's to
    // keep (law 4 carries them).
    const streams = canonical
      .streamEvents(canonical.response.map(expressibleStreamResponse))
      .map((events) => events.filter((e) => e.type !== "logprobs"));

    it("for every stream the format expresses, event for event", () => {
      fc.assert(
        fc.property(streams, (events) => {
          expect(roundTrip(events)).toEqual(events);
        }),
      );
    });

    it("decoding is independent of how the bytes are split and of \\n or \\r\\n line ends", async () => {
      await fc.assert(
        fc.asyncProperty(
          streams,
          fc.boolean(),
          fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }),
          async (events, crlf, cuts) => {
            const text = encodeResponsesEvents(events).map(encodeSseEvent).join("");
            const bytes = new TextEncoder().encode(crlf ? text.replaceAll("\n", "\r\n") : text);
            // Cuts anywhere, inside multi-byte characters and between \r and \n included.
            const offsets = [...new Set(cuts.map((c) => Math.floor(c * bytes.length)))].sort(
              (a, b) => a - b,
            );
            const chunks = [0, ...offsets].map((start, i) =>
              bytes.slice(start, offsets[i] ?? bytes.length),
            );
            const decoded: StreamEvent[] = [];
            const output = new ReadableStream<Uint8Array>({
              start(controller) {
                for (const chunk of chunks) controller.enqueue(chunk);
                controller.close();
              },
            })
              .pipeThrough(decodeSse())
              .pipeThrough(decodeResponsesStream());
            for await (const event of output) decoded.push(event);
            expect(decoded).toEqual(events);
          },
        ),
      );
    });

    it("every encoded frame is a valid Responses event, numbered in order, named by its type", () => {
      fc.assert(
        fc.property(canonical.streamEvents(), (events) => {
          const frames = encodeResponsesEvents(events, { onWarning: () => {} });
          frames.forEach((frame, i) => {
            const payload = JSON.parse(frame.data);
            expect(responsesStreamEventSchema.safeParse(payload).success).toBe(true);
            expect([frame.event, payload.sequence_number]).toEqual([payload.type, i]);
          });
          const last = JSON.parse(frames[frames.length - 1]?.data ?? "{}");
          expect(["response.completed", "response.incomplete", "response.failed"]).toContain(
            last.type,
          );
        }),
      );
    });

    it("errors a client caused keep their status, type, code and message", () => {
      const clientError = fc.record(
        {
          status: fc.constantFrom(400, 404, 429),
          message: fc.stringMatching(/^[A-Za-z][A-Za-z .,]{0,30}[a-z.]$/),
          code: fc.constantFrom(
            "context_length_exceeded",
            "model_not_found",
            "rate_limit_exceeded",
            "custom_code",
          ),
        },
        { requiredKeys: ["status", "message"] },
      );
      const types = {
        400: "invalid_request_error",
        404: "not_found_error",
        429: "rate_limit_error",
      } as const;
      fc.assert(
        fc.property(streams, clientError, fc.nat(), (events, error, cut) => {
          // An error mid-stream, before the finish (a failed response has no finish reason): the
          // stream stops there.
          const body = events.findIndex((e) => e.type === "finish");
          // A signature travels with its finished item; a part the error cuts off has none.
          const cutoff = events.slice(0, 1 + (cut % body));
          const closed = new Set(cutoff.flatMap((e) => (e.type === "part-end" ? [e.index] : [])));
          const head = cutoff.filter((e) => e.type !== "signature-delta" || closed.has(e.index));
          const typed = { ...error, type: types[error.status as keyof typeof types] };
          const consistent =
            error.code === undefined ||
            error.code === "custom_code" ||
            statusOfCode[error.code] === error.status;
          fc.pre(consistent);
          const stream: StreamEvent[] = [...head, { type: "error", error: typed }];
          expect(normalizeStreamEvents(roundTrip(stream))).toEqual(normalizeStreamEvents(stream));
        }),
      );
    });
  });

  const statusOfCode: Record<string, number> = {
    context_length_exceeded: 400,
    model_not_found: 404,
    rate_limit_exceeded: 429,
  };

  describe("law 4: a stream, accumulated, equals the non-streamed response", () => {
    /** Content both the stream and the result carry: one output, one text before the calls. */
    const both = canonical.response.map((r): Response => {
      const streamable = expressibleStreamResponse(r);
      const [choice] = outputsOf(expressibleInterlinguaResponse(streamable));
      const madeCalls = choice?.message.parts.some((p) => p.type === "tool-call") ?? false;
      const unified = choice?.finishReason.unified ?? "stop";
      const finish =
        madeCalls && unified === "stop"
          ? "tool-calls"
          : !madeCalls && unified === "tool-calls"
            ? "stop"
            : unified;
      return {
        ...expressibleInterlinguaResponse(streamable),
        message: choice?.message ?? { role: "assistant", parts: [] },
        finishReason: { unified: finish },
      };
    });
    // The raw finish value is each shape's own word for the same reason (tool_calls / completed).
    const withoutRaw = (r: Response): Response =>
      mapOutputs(r, (c) => ({ ...c, finishReason: { unified: c.finishReason.unified } }));

    it("result shape: render -> parse equals encode -> decode -> accumulate", () => {
      fc.assert(
        fc.property(both, (response) => {
          const streamed = accumulateStream(roundTrip(responseToEvents(response)));
          const whole = parseInterlinguaResponsesResponse(
            renderInterlinguaResponsesResponse(response),
          );
          expect(withoutRaw(streamed)).toEqual(withoutRaw(whole));
        }),
      );
    });

    it("the final response object of the stream parses to the accumulated stream", () => {
      fc.assert(
        fc.property(canonical.response.map(expressibleStreamResponse), (response) => {
          const frames = encodeResponsesEvents(responseToEvents(response));
          const final = JSON.parse(frames[frames.length - 1]?.data ?? "{}").response;
          const streamed = accumulateStream(decodeResponsesEvents(frames));
          expect(parseResponsesObject(final)).toEqual(streamed);
          expect(streamed).toEqual(response);
        }),
      );
    });
  });
});

describe("responses (OpenAI's Responses API)", () => {
  describe("law 3: decode(encode(events)) equals events", () => {
    it("decode(encode(events)) equals events", () => {
      fc.assert(
        // Logprobs ride on output_text parts: where they stand among the events is not the
        // format's to keep (law 4 below carries them).
        fc.property(
          canonical.streamEvents(canonical.response.map(expressibleResponse)),
          (events) => {
            const ev = events.filter((e) => e.type !== "logprobs");
            expect(decodeResponsesEvents(encodeResponsesEvents(ev))).toEqual(ev);
          },
        ),
      );
    });
  });

  describe("law 4: a stream, accumulated, equals the non-streamed response", () => {
    it("the stream accumulated equals the parsed result, and the result is the stream's final object", () => {
      fc.assert(
        fc.property(canonical.response.map(expressibleResponse), (r) => {
          const frames = encodeResponsesEvents(responseToEvents(r));
          const final = JSON.parse(frames[frames.length - 1]?.data ?? "{}").response;
          const rendered = response.render(r);
          const { output_text: _, ...object } = rendered;
          expect(object).toEqual(final);
          expect(accumulateStream(decodeResponsesEvents(frames))).toEqual(response.parse(rendered));
        }),
      );
    });
  });
});
