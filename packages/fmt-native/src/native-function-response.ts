import {
  JsonNumber,
  parseJsonKeepingNumbers,
  type RenderOptions,
  stringifyJsonKeepingNumbers,
  type ToolResultContent,
  type ToolResultPart,
} from "@interlingua/core-types";
import { invalidField } from "@interlingua/errors";
import type { NativeFunctionResponse } from "./native-api.js";
import { mediaFromFileData, mediaFromInlineData, renderedImageType } from "./native-media.js";

type Json = Record<string, unknown>;

const isPlainObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof JsonNumber);

/**
 * The JSON object a text holds, if it holds exactly one. Its numbers stay exact (a tool result's
 * `12345678901234567890` is sent as written, not as the nearest double).
 */
export function parseJsonObject(text: string): Json | undefined {
  const start = text.trimStart();
  if (!start.startsWith("{")) return undefined;
  try {
    const value: unknown = parseJsonKeepingNumbers(text);
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A string the renderer would write back as-is under `result` / `error`. */
const isPlainText = (v: unknown): v is string => typeof v === "string" && !parseJsonObject(v);

/**
 * functionResponse.response must be a JSON object, while canonical tool results are text. The two
 * meet by these rules, which invert each other exactly:
 * - `{result: "<text>"}` (the only key, text that is not itself a JSON object) is that text;
 * - `{error: "<text>"}` or `{error: {...}}` (the only key) is an error result (`isError`);
 * - any other object is its JSON text; `{}` is an empty result.
 * Images of a multimodal function response (`parts`) become image content after the text.
 */
export function parseFunctionResponse(
  response: NativeFunctionResponse,
  path: readonly PropertyKey[],
): { content: ToolResultContent[]; isError: boolean } {
  const body = response.response ?? {};
  const keys = Object.keys(body);
  const only = keys.length === 1 ? keys[0] : undefined;
  let text: string | undefined;
  let isError = false;
  if (only === "result" && isPlainText(body.result)) {
    text = body.result;
  } else if (only === "error" && (isPlainText(body.error) || isPlainObject(body.error))) {
    text = typeof body.error === "string" ? body.error : stringifyJsonKeepingNumbers(body.error);
    isError = true;
  } else if (keys.length > 0) {
    text = stringifyJsonKeepingNumbers(body);
  }
  const content: ToolResultContent[] = text === undefined ? [] : [{ type: "text", text }];
  response.parts?.forEach((part, i) => {
    const media = part.inlineData
      ? mediaFromInlineData(part.inlineData)
      : part.fileData
        ? mediaFromFileData(part.fileData)
        : undefined;
    if (media?.type !== "image") {
      throw invalidField([...path, "parts", i], "only images can be part of a function response");
    }
    content.push(media);
  });
  return { content, isError };
}

export interface RenderedFunctionResponse {
  response: Json;
  parts?: NonNullable<NativeFunctionResponse["parts"]>;
}

export function renderFunctionResponse(
  part: ToolResultPart,
  feature: string,
  options?: RenderOptions,
): RenderedFunctionResponse {
  const texts: string[] = [];
  const parts: NonNullable<NativeFunctionResponse["parts"]> = [];
  for (const item of part.content) {
    if (item.type === "text") {
      texts.push(item.text);
      if (item.signature !== undefined || item.cacheControl !== undefined) {
        options?.onWarning?.({
          type: "dropped",
          feature: `${feature}.content`,
          message: "a function response's text has no signature or cache boundary",
        });
      }
      continue;
    }
    if (item.detail !== undefined || item.cacheControl !== undefined) {
      options?.onWarning?.({
        type: "dropped",
        feature: `${feature}.content`,
        message: "a function response's image has no detail or cache boundary",
      });
    }
    parts.push(
      item.source.type === "base64"
        ? { inlineData: { mimeType: item.source.mediaType, data: item.source.data } }
        : {
            fileData: { mimeType: renderedImageType(item.source.url), fileUri: item.source.url },
          },
    );
  }
  if (texts.length > 1) {
    options?.onWarning?.({
      type: "mapped",
      feature: `${feature}.content`,
      message: "the result's text parts were joined into one functionResponse text",
    });
  }
  const text = texts.length === 0 ? undefined : texts.join("");
  let response: Json;
  if (part.isError) response = { error: text === undefined ? "" : (parseJsonObject(text) ?? text) };
  else if (text === undefined) response = {};
  else response = parseJsonObject(text) ?? { result: text };
  return parts.length > 0 ? { response, parts } : { response };
}
