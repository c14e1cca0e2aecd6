import {
  accumulateStream,
  normalizeStreamEvents,
  responseToEvents,
  streamEventSchema,
} from "@interlingua/core-types";
import * as canonical from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { parseChatResponse } from "./parse-chat-response.js";
import { decodeChatMessages } from "./parse-chat-stream.js";
import { renderChatResponse } from "./render-chat-response.js";
import { encodeChatEvents } from "./render-chat-stream.js";
import {
  asJson,
  chatChunksToSse,
  chatStreamWire,
  fc,
  toChatExpressibleResponse,
} from "./testing.js";

const expressibleEvents = canonical.streamEvents(
  canonical.response.map(toChatExpressibleResponse).map(asJson),
);

describe("law 3: decode(encode(events)) equals events", () => {
  it("after normalizeStreamEvents (chat has no part framing)", () => {
    fc.assert(
      fc.property(expressibleEvents, (events) => {
        const decoded = decodeChatMessages(
          encodeChatEvents(events, { providerExtras: { openai: { includeUsage: true } } }),
        );
        for (const event of decoded) expect(streamEventSchema.safeParse(event).success).toBe(true);
        expect(normalizeStreamEvents(decoded)).toStrictEqual(normalizeStreamEvents(events));
      }),
    );
  });

  it("exactly, event for event, for canonical event sequences", () => {
    fc.assert(
      fc.property(expressibleEvents, (events) => {
        const decoded = decodeChatMessages(
          encodeChatEvents(events, { providerExtras: { openai: { includeUsage: true } } }),
        );
        // Chat finishes each choice in its own chunk and reports usage last: the canonical order.
        expect(decoded).toStrictEqual(events);
      }),
    );
  });
});

describe("law 4: a stream, accumulated, equals the non-streamed response", () => {
  it("canonical side: events -> chat chunks -> events -> accumulate equals render -> parse", () => {
    fc.assert(
      fc.property(canonical.response.map(toChatExpressibleResponse).map(asJson), (response) => {
        const viaBody = parseChatResponse(renderChatResponse(response));
        const viaStream = accumulateStream(
          decodeChatMessages(
            encodeChatEvents(responseToEvents(response), {
              providerExtras: { openai: { includeUsage: true } },
            }),
          ),
        );
        expect(viaStream).toStrictEqual(viaBody);
      }),
    );
  });

  it("wire side: an upstream's chunks accumulate to the parse of its body", () => {
    fc.assert(
      fc.property(chatStreamWire, ({ response, chunks }) => {
        const { extras: _extras, ...body } = parseChatResponse(response);
        expect(accumulateStream(decodeChatMessages(chatChunksToSse(chunks)))).toStrictEqual(body);
      }),
    );
  });
});
