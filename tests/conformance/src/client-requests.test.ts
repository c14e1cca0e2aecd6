import { readdirSync, readFileSync } from "node:fs";
import type { Request } from "@interlingua/core-types";
import { chat } from "@interlingua/fmt-chat";
import { messages } from "@interlingua/fmt-messages";
import { parseNativeRequest, renderNativeRequest } from "@interlingua/fmt-native";
import { responses } from "@interlingua/fmt-responses";
import { describe, expect, it } from "vitest";

// What real clients sent through the gateway (fixtures/clients, recorded by
// `pnpm test:clients -- --save`): every body parses with the codec of its path, and what the
// codec renders back parses to the same canonical request.

const DIR = new URL("../../../fixtures/clients/", import.meta.url);
const codecOf = (path: string) => {
  if (path.startsWith("/v1/chat/completions")) return chat.request;
  if (path.startsWith("/v1/messages")) return messages.request;
  if (path.startsWith("/v1/responses")) return responses.request;
  const model = /\/models\/([^:/]+):/.exec(path)?.[1];
  if (model === undefined) return undefined;
  return {
    parse: (body: unknown): Request => parseNativeRequest(body, { model }),
    render: (request: Request): unknown => renderNativeRequest(request),
  };
};

/**
 * A Responses body with `store: true` names earlier items by id (`item_reference`); the gateway
 * expands them from its store before any codec reads the body (docs/responses.md), so the codec
 * test reads the rest.
 */
function withoutReferences(body: unknown): unknown {
  const input = (body as { input?: unknown }).input;
  if (!Array.isArray(input)) return body;
  return {
    ...(body as object),
    input: input.filter((item) => (item as { type?: unknown }).type !== "item_reference"),
  };
}

const files = readdirSync(DIR).filter((f) => f.endsWith(".requests.json"));

describe("recorded client requests", () => {
  it("cover the agent CLIs and the SDKs", () => {
    expect(files.map((f) => f.replace(".requests.json", "")).sort()).toEqual([
      "ai-sdk",
      "claude",
      "codex",
      "gemini",
      "langchain",
      "openai-agents",
    ]);
  });

  it.each(files)("%s: every body parses and survives render -> parse", (file) => {
    const { requests } = JSON.parse(readFileSync(new URL(file, DIR), "utf8")) as {
      requests: { path: string; body: unknown }[];
    };
    expect(requests.length).toBeGreaterThanOrEqual(2);
    for (const { path, body: sent } of requests) {
      const codec = codecOf(path);
      if (codec === undefined) throw new Error(`${file}: no codec for ${path}`);
      const request = codec.parse(withoutReferences(sent));
      expect(request.messages.length).toBeGreaterThan(0);
      expect(codec.parse(codec.render(request))).toEqual(request);
    }
  });

  // Parsers return the client's own objects where they are already valid (no copy): no codec
  // may then write into them, parsing or rendering toward any family, or a fallback to another
  // channel (and the stored Responses input) would see a changed body.
  it.each(files)("%s: no codec writes into the client's body", (file) => {
    const { requests } = JSON.parse(readFileSync(new URL(file, DIR), "utf8")) as {
      requests: { path: string; body: unknown }[];
    };
    const targets = [chat.request, messages.request, responses.request, nativeTarget];
    for (const { path, body: sent } of requests) {
      const body = deepFreeze(structuredClone(withoutReferences(sent)));
      const request = codecOf(path)?.parse(body);
      if (request === undefined) throw new Error(`${file}: no codec for ${path}`);
      for (const target of targets) {
        const rendered = target.render(request, { onWarning: () => {} });
        expect(codecOf(path)?.parse(body)).toEqual(request);
        expect(rendered).toBeDefined();
      }
    }
  });
});

const nativeTarget = {
  render: (request: Request, options: { onWarning: () => void }): unknown =>
    renderNativeRequest(request, options),
};

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
