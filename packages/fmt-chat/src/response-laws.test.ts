import { outputsOf } from "@interlingua/core-types";
import * as canonical from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { normalizeChatResponse } from "./normalize-chat-response.js";
import { parseChatResponse } from "./parse-chat-response.js";
import { renderChatResponse } from "./render-chat-response.js";
import { asJson, chatResponseWire, fc, toChatExpressibleResponse } from "./testing.js";

describe("law 1: render(parse(w)) equals normalize(w)", () => {
  it("responses", () => {
    fc.assert(
      fc.property(chatResponseWire, (wire) => {
        expect(renderChatResponse(parseChatResponse(wire))).toStrictEqual(
          normalizeChatResponse(wire),
        );
      }),
    );
  });
});

/**
 * Law 2 runs on the canonical values chat expresses: `toChatExpressibleResponse`
 * (src/testing.ts) restricts the core-types arbitrary and says exactly what is left out.
 */
describe("law 2: parse(render(c)) equals c", () => {
  it("responses", () => {
    fc.assert(
      fc.property(canonical.response.map(toChatExpressibleResponse).map(asJson), (response) => {
        const warnings: unknown[] = [];
        const wire = renderChatResponse(response, { onWarning: (w) => warnings.push(w) });
        expect(parseChatResponse(wire)).toStrictEqual(response);
        expect(warnings).toEqual([]);
      }),
    );
  });

  it("render never throws on any canonical response, and warns instead of dropping silently", () => {
    fc.assert(
      fc.property(canonical.response, (response) => {
        const warnings: { feature: string }[] = [];
        renderChatResponse(response, { onWarning: (w) => warnings.push(w) });
        const expressible = toChatExpressibleResponse(response);
        const lossy =
          response.providerExtras !== undefined ||
          outputsOf(response).some(
            (c) =>
              c.stopSequence !== undefined ||
              c.providerExtras !== undefined ||
              // Signatures and redacted thinking travel in reasoning_details; media does not.
              c.message.parts.some((p) => p.type === "image" || p.type === "file"),
          );
        if (lossy) expect(warnings.length).toBeGreaterThan(0);
        expect(outputsOf(expressible).length).toBe(outputsOf(response).length);
      }),
    );
  });
});
