import { describe, expect, it } from "vitest";
import { messagesRequestSchema, messagesResponseSchema } from "./messages-api.js";
import { messagesStreamEventSchema } from "./messages-stream-api.js";
import { fc, wireRequest, wireResponse, wireStream } from "./testing.js";

describe("wire arbitraries pass the wire schemas (the schema is the oracle)", () => {
  it("requests", () => {
    fc.assert(
      fc.property(wireRequest, (request) => {
        expect(messagesRequestSchema.safeParse(request).error).toBeUndefined();
      }),
    );
  });

  it("responses", () => {
    fc.assert(
      fc.property(wireResponse, (response) => {
        expect(messagesResponseSchema.safeParse(response).error).toBeUndefined();
      }),
    );
  });

  it("stream events", () => {
    fc.assert(
      fc.property(wireStream, ({ response, events }) => {
        expect(messagesResponseSchema.safeParse(response).error).toBeUndefined();
        for (const event of events) {
          expect(messagesStreamEventSchema.safeParse(event).error).toBeUndefined();
        }
      }),
    );
  });
});
