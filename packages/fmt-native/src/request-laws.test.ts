import type {
  AssistantPart,
  Message,
  Request,
  Tool,
  ToolResultContent,
  ToolResultPart,
  UserPart,
} from "@interlingua/core-types";
import * as arb from "@interlingua/core-types/testing";
import { fc } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { NATIVE_EFFORT_BUDGET, takesThinkingBudget } from "./map-native-thinking-config.js";
import { parseJsonObject } from "./native-function-response.js";
import { guessImageType } from "./native-media.js";
import { normalizeNativeRequest } from "./normalize-native.js";
import { parseNativeRequest } from "./parse-native-request.js";
import { renderNativeRequest } from "./render-native-request.js";
import { sanitizeNativeJsonSchema } from "./sanitize-native-json-schema.js";
import { nativeRequestWire } from "./testing.js";

describe("law 1: render(parse(w)) equals normalize(w)", () => {
  it("requests", () => {
    fc.assert(
      fc.property(nativeRequestWire, (wire) => {
        // A 3.x model takes a thinking level as sent (a 2.5 one takes it as a budget).
        const request = parseNativeRequest(wire, { model: "txtC-3-pro-preview" });
        expect(renderNativeRequest(request)).toEqual(normalizeNativeRequest(wire));
      }),
    );
  });
});

// ---- law 2 ---------------------------------------------------------------------------------------
// The canonical values this format expresses, as restrictions of the core arbitraries:
// - no turn names, no redacted thinking, no image detail, no file ids or file names, no assistant
//   turn without content;
// - a file URL without a media type does not look like an image URL (it would come back an image);
// - tool results name their tool, hold at most one text (not itself a JSON object: texts that are
//   objects travel as the object) before their images, and no text signature or cache boundary;
//   isError only beside a text;
// - function tools are contiguous (they share one functionDeclarations entry), carry no strict flag
//   or cache boundary; no remote MCP tools or other providers' tools; built-in tool options are
//   either absent or non-empty;
// - thinking: a budget only with "enabled", and not together with an effort; no effort with
//   "disabled" or "adaptive" (the upstream takes a budget or a level, never both); a 2.5 model's
//   effort is its budget (those models take no level);
// - no parallelToolCalls, user, metadata or OpenAI extras (includeUsage); a json-schema format has no name/strict
//   and its schema is inside the responseJsonSchema subset.

const omit = <T extends object, K extends keyof T>(value: T, ...keys: K[]): Omit<T, K> => {
  const out = { ...value };
  for (const key of keys) delete out[key];
  return out;
};

function expressibleUserPart(part: UserPart): UserPart[] {
  if (part.type === "image") return [omit(part, "detail")];
  if (part.type === "file") {
    if (part.source.type === "file-id") return [];
    if (part.source.type === "url" && part.source.mediaType === undefined) {
      if (guessImageType(part.source.url) !== undefined) return [];
    }
    return [omit(part, "filename")];
  }
  return [part];
}

function expressibleToolResult(part: ToolResultPart, name: string): ToolResultPart {
  const texts = part.content.filter(
    (c): c is ToolResultContent & { type: "text" } =>
      c.type === "text" && parseJsonObject(c.text) === undefined,
  );
  const images = part.content.filter((c) => c.type === "image");
  const content: ToolResultContent[] = [
    ...texts.slice(0, 1).map((t) => ({ type: "text" as const, text: t.text })),
    ...images.map((i) => omit(i, "detail", "cacheControl")),
  ];
  const out: ToolResultPart = { ...omit(part, "isError"), name, content };
  if (part.isError && content[0]?.type === "text") out.isError = true;
  return out;
}

function expressibleMessage(message: Message): Message {
  switch (message.role) {
    case "user":
      return { role: "user", parts: message.parts.flatMap(expressibleUserPart) };
    case "assistant":
      return {
        role: "assistant",
        parts: message.parts.filter((p): p is AssistantPart => p.type !== "redacted-thinking"),
      };
    case "tool":
      return {
        role: "tool",
        parts: message.parts.map((p, i) => expressibleToolResult(p, p.name ?? `tool_${i}`)),
      };
  }
}

const reservedToolKeys = new Set(["functionDeclarations", "googleSearch", "fileSearch"]);

function expressibleTools(tools: Tool[]): Tool[] {
  const out: Tool[] = [];
  for (const tool of tools) {
    if (tool.type === "function") out.push(omit(tool, "strict", "cacheControl"));
    else if (tool.type === "web_search" || tool.type === "file_search") {
      out.push(tool.options && Object.keys(tool.options).length > 0 ? tool : { type: tool.type });
    } else if (tool.type === "provider" && tool.provider === "gemini") {
      if (!reservedToolKeys.has(tool.name)) out.push(tool);
    }
  }
  return [...out.filter((t) => t.type === "function"), ...out.filter((t) => t.type !== "function")];
}

const expressibleRequest: fc.Arbitrary<Request> = arb.request
  .map((request) => {
    const out: Request = omit(
      arb.withoutProviderExtras(request, "openai"),
      "parallelToolCalls",
      "user",
      "metadata",
      "extras",
    );
    out.system = request.system.map((p) => omit(p, "cacheControl"));
    // A turn with no parts is refused (Gemini refuses it), and an assistant turn with no content
    // is left out (Gemini refuses an empty model turn).
    out.messages = request.messages
      .map(expressibleMessage)
      .filter((m) => m.parts.length > 0)
      .filter(
        (m) =>
          m.role !== "assistant" ||
          m.parts.some(
            (p) =>
              p.type !== "text" ||
              p.text !== "" ||
              p.signature !== undefined ||
              p.cacheControl !== undefined,
          ),
      );
    out.tools = expressibleTools(request.tools);
    // allowedFunctionNames goes with ANY only (one name is "call this tool"); with AUTO the
    // allowed list is sent as a shorter tools list, read back as the plain mode.
    const choice = out.toolChoice;
    if (choice?.type === "auto" && choice.allowed) out.toolChoice = { type: "auto" };
    if (choice?.type === "required" && choice.allowed?.length === 1) {
      out.toolChoice = { type: "tool", name: choice.allowed[0] as string };
    }
    if (out.responseFormat?.type === "json-schema") {
      // A response schema is sent cut to the JSON Schema subset the upstream accepts.
      const format = omit(out.responseFormat, "name", "strict");
      out.responseFormat = { ...format, schema: sanitizeNativeJsonSchema(format.schema) };
    }
    if (request.thinking !== undefined) {
      const t = request.thinking;
      out.thinking =
        t.type === "enabled"
          ? t.budgetTokens !== undefined
            ? omit(t, "effort")
            : t.effort !== undefined && takesThinkingBudget(request.model)
              ? // A 2.5 model takes no level: the effort travels as its budget.
                { ...omit(t, "effort"), budgetTokens: NATIVE_EFFORT_BUDGET[t.effort] }
              : t
          : omit(t, "budgetTokens", "effort");
    }
    return out;
    // A request needs a turn left once empty assistant turns are left out.
  })
  .filter((request) => request.messages.length > 0);

describe("law 2: parse(render(c)) equals c", () => {
  it("requests", () => {
    fc.assert(
      fc.property(expressibleRequest, (request) => {
        const wire = renderNativeRequest(request);
        const back = parseNativeRequest(JSON.parse(JSON.stringify(wire)), {
          model: request.model,
          stream: request.stream,
        });
        expect(back).toEqual(request);
      }),
    );
  });
});
