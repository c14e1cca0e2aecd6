import {
  accumulateStream,
  normalizeStreamEvents,
  type Response,
  responseToEvents,
  type StreamEvent,
} from "@interlingua/core-types";
import * as canonical from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import {
  expressibleResponse,
  expressibleStreamResponse,
  streamedUsage,
} from "../test/expressible.js";
import { decodeAll, encodeAll, pipeThrough } from "../test/helpers.js";
import { isForeignUnnamedReason } from "./map-messages-finish-reason.js";
import { MESSAGES_EXTRAS } from "./messages-extras.js";
import { parseMessagesResponse } from "./parse-messages-response.js";
import { decodeMessagesStream } from "./parse-messages-stream.js";
import { renderMessagesResponse } from "./render-messages-response.js";
import { encodeMessagesStream } from "./render-messages-stream.js";
import { fc, wireStream } from "./testing.js";

/** Splits every delta into two fragments at a random offset, as upstream chunking would. */
const rechunk = (events: StreamEvent[]) =>
  fc.array(fc.nat({ max: 8 }), { minLength: events.length, maxLength: events.length }).map((cuts) =>
    events.flatMap((event, i): StreamEvent[] => {
      if (!("delta" in event) || event.delta.length < 2) return [event];
      const at = Math.min(cuts[i] ?? 0, event.delta.length);
      return [
        { ...event, delta: event.delta.slice(0, at) },
        { ...event, delta: event.delta.slice(at) },
      ];
    }),
  );

const expressibleEvents = expressibleStreamResponse.map(responseToEvents);

describe("law 3: decode(encode(events)) equals events", () => {
  it("holds for the event sequences of expressible responses", () => {
    fc.assert(
      fc.property(expressibleEvents, (events) => {
        expect(normalizeStreamEvents(decodeAll(encodeAll(events)))).toEqual(
          normalizeStreamEvents(events),
        );
      }),
    );
  });

  it("holds however the deltas are chunked and whatever the part indices", () => {
    fc.assert(
      fc.property(expressibleEvents.chain(rechunk), fc.nat(3), (events, gap) => {
        // Another format's indices may skip positions (parts without stream events).
        const spaced = events.map((e) => ("index" in e ? { ...e, index: e.index * (gap + 1) } : e));
        expect(normalizeStreamEvents(decodeAll(encodeAll(spaced)))).toEqual(
          normalizeStreamEvents(events),
        );
      }),
    );
  });

  it("holds through the TransformStreams", async () => {
    await fc.assert(
      fc.asyncProperty(expressibleEvents, async (events) => {
        const frames = await pipeThrough(encodeMessagesStream(), events);
        const decoded = await pipeThrough(decodeMessagesStream(), frames);
        expect(normalizeStreamEvents(decoded)).toEqual(normalizeStreamEvents(events));
      }),
    );
  });
});

describe("law 4: a stream, accumulated, equals the non-streamed response", () => {
  it("canonical: accumulate(decode(encode(events(r)))) equals parse(render(r))", () => {
    fc.assert(
      fc.property(expressibleResponse, (response) => {
        const streamed = accumulateStream(decodeAll(encodeAll(responseToEvents(response))));
        expect(streamed).toEqual(
          streamedUsage(parseMessagesResponse(renderMessagesResponse(response))),
        );
      }),
    );
  });

  it("wire: an Anthropic stream accumulates to the parse of its whole message", () => {
    fc.assert(
      fc.property(wireStream, ({ response, events }) => {
        const messages = events.map((e) => ({ event: e.type, data: JSON.stringify(e) }));
        const whole: Response = parseMessagesResponse(response);
        // The stream carries a refusal's category and explanation on the finish, not the extras copy.
        delete whole.extras?.[MESSAGES_EXTRAS];
        if (whole.extras && Object.keys(whole.extras).length === 0) delete whole.extras;
        expect(accumulateStream(decodeAll(messages))).toEqual(whole);
      }),
    );
  });

  it("canonical responses of any format accumulate to themselves within what messages carries", () => {
    fc.assert(
      fc.property(canonical.response, (response) => {
        const streamed = accumulateStream(decodeAll(encodeAll(responseToEvents(response))));
        const first = response;
        expect(streamed.id).toBe(response.id);
        expect(streamed.alternatives).toBeUndefined();
        // Another upstream's unnamed reason (raw "OTHER") ends the turn; a stated error is other.
        const reason = first.finishReason;
        expect(streamed.finishReason.unified).toBe(
          isForeignUnnamedReason(reason)
            ? "stop"
            : reason.unified === "error"
              ? "other"
              : reason.unified,
        );
        expect(streamed.usage.inputTokens).toBe(response.usage.inputTokens);
        expect(streamed.usage.outputTokens).toBe(response.usage.outputTokens);
      }),
    );
  });
});
