import { describe, expect, it } from "vitest";
import { parseMessagesRequest } from "./parse-messages-request.js";
import { renderMessagesRequest } from "./render-messages-request.js";

describe("document context and citations", () => {
  it("are kept on the file part and written back", () => {
    const wire = {
      model: "m",
      max_tokens: 10,
      messages: [
        {
          role: "user",
          content: [
            {
              type: "document",
              source: { type: "text", media_type: "text/plain", data: "The sky is blue." },
              title: "Sky",
              context: "A note about colours",
              citations: { enabled: true },
            },
            { type: "text", text: "Colour?" },
          ],
        },
      ],
    };
    const request = parseMessagesRequest(wire);
    expect(request.messages[0]?.parts[0]).toMatchObject({
      type: "file",
      context: "A note about colours",
      citations: true,
    });
    const back = renderMessagesRequest(request);
    expect(back.messages[0]?.content).toEqual(wire.messages[0]?.content);
  });
});
