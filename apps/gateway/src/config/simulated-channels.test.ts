import { describe, expect, it } from "vitest";
import { simulatedChannels } from "./simulated-channels.ts";

describe("simulated channels", () => {
  const channels = simulatedChannels("http://127.0.0.1:9");
  const byName = new Map(channels.map((c) => [c.name, c]));

  it("one channel per upstream protocol, the Responses API included", () => {
    expect(channels.map((c) => c.protocol).sort()).toEqual([
      "anthropic",
      "gemini",
      "openai",
      "openai-responses",
    ]);
  });

  it("OpenAI's pro and codex models are served only through the Responses API", () => {
    expect(byName.get("sim-openai-responses")?.models).toEqual(["txtA-5.2-pro", "txtA-5.2-codex"]);
    const chat = byName.get("sim-openai")?.models as string[];
    expect(chat).toContain("txtA-5");
    expect(chat).not.toContain("txtA-5.2-pro");
    expect(chat).not.toContain("txtA-5.2-codex");
  });
});
