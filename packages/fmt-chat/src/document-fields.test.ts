import type { Request, Warning } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { renderChatRequest } from "./render-chat-request.js";

describe("document context and citations toward chat", () => {
  it("are reported as dropped, naming the part", () => {
    const request: Request = {
      model: "m",
      system: [],
      messages: [
        {
          role: "user",
          parts: [
            {
              type: "file",
              source: { type: "base64", mediaType: "application/pdf", data: "JVBERi0=" },
              context: "note",
              citations: true,
            },
          ],
        },
      ],
      sampling: {},
      tools: [],
      stream: false,
    };
    const warnings: Warning[] = [];
    renderChatRequest(request, { onWarning: (w) => warnings.push(w) });
    expect(warnings.map((w) => `${w.feature}=${w.type}`)).toEqual([
      "messages[0].parts[0].context=dropped",
      "messages[0].parts[0].citations=dropped",
    ]);
  });
});
