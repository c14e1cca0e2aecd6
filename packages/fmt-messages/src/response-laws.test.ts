import { describe, expect, it } from "vitest";
import { expressibleResponse } from "../test/expressible.js";
import { normalizeMessagesResponse } from "./normalize-messages.js";
import { parseMessagesResponse } from "./parse-messages-response.js";
import { renderMessagesResponse } from "./render-messages-response.js";
import { fc, wireResponse } from "./testing.js";

describe("law 1: render(parse(w)) equals normalize(w)", () => {
  it("holds for generated responses", () => {
    fc.assert(
      fc.property(wireResponse, (wire) => {
        expect(renderMessagesResponse(parseMessagesResponse(wire))).toEqual(
          normalizeMessagesResponse(wire),
        );
      }),
    );
  });
});

describe("law 2: parse(render(c)) equals c", () => {
  it("holds for canonical responses the messages format expresses", () => {
    fc.assert(
      fc.property(expressibleResponse, (response) => {
        expect(parseMessagesResponse(renderMessagesResponse(response))).toEqual(response);
      }),
    );
  });
});
