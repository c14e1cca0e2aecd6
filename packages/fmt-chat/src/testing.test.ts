import { requestSchema, responseSchema } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { chatRequestSchema, chatResponseSchema } from "./chat-api.js";
import { chatChunkSchema } from "./chat-chunk-api.js";
import { parseChatRequest } from "./parse-chat-request.js";
import { parseChatResponse } from "./parse-chat-response.js";
import { chatRequestWire, chatResponseWire, chatStreamWire, fc } from "./testing.js";

describe("wire arbitraries pass the wire schemas (the schema is the oracle)", () => {
  it("every generated request passes the chat request schema", () => {
    fc.assert(
      fc.property(chatRequestWire, (wire) => {
        expect(chatRequestSchema.safeParse(wire).success).toBe(true);
      }),
    );
  });

  it("every generated response passes the chat response schema", () => {
    fc.assert(
      fc.property(chatResponseWire, (wire) => {
        expect(chatResponseSchema.safeParse(wire).success).toBe(true);
      }),
    );
  });

  it("every generated stream chunk passes the chunk schema", () => {
    fc.assert(
      fc.property(chatStreamWire, ({ chunks }) => {
        for (const chunk of chunks) expect(chatChunkSchema.safeParse(chunk).success).toBe(true);
      }),
    );
  });
});

describe("parsed wire values pass the canonical schemas (the schema is the oracle)", () => {
  it("parse produces values that pass the canonical schemas", () => {
    fc.assert(
      fc.property(chatRequestWire, chatResponseWire, (request, response) => {
        expect(requestSchema.safeParse(parseChatRequest(request)).success).toBe(true);
        expect(responseSchema.safeParse(parseChatResponse(response)).success).toBe(true);
      }),
    );
  });
});
