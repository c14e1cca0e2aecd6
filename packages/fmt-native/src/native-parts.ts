import {
  type AssistantPart,
  type CacheControl,
  type FilePart,
  type ImagePart,
  parseJsonKeepingNumbers,
  type RenderOptions,
  stringifyJsonKeepingNumbers,
  type UserPart,
  warnDocumentFields,
} from "@interlingua/core-types";
import { invalidField, invalidRequest } from "@interlingua/errors";
import type { NativeCacheControl, NativePart } from "./native-api.js";
import { codeExecutionText } from "./native-code-execution.js";
import type { NativeBookkeeping } from "./native-extras.js";
import {
  defaultImageType,
  guessImageType,
  mediaFromFileData,
  mediaFromInlineData,
  renderedImageType,
} from "./native-media.js";
import { isGeneratedCallId } from "./native-tool-call-ids.js";

/** The part's payload: the upstream's Part is a oneof of these. */
const dataFields = [
  "text",
  "inlineData",
  "fileData",
  "functionCall",
  "functionResponse",
  "executableCode",
  "codeExecutionResult",
] as const;
export type NativeDataField = (typeof dataFields)[number];

/** Whether a part holds any data field this codec knows (a newer part type holds none). */
export const hasDataField = (part: NativePart): boolean =>
  dataFields.some((field) => part[field] !== undefined);

export function dataFieldOf(part: NativePart, path: readonly PropertyKey[]): NativeDataField {
  let found: NativeDataField | undefined;
  for (const field of dataFields) {
    if (part[field] === undefined) continue;
    if (found !== undefined) {
      throw invalidField(
        path,
        `a part holds one of ${dataFields.join(", ")}; got ${found} and ${field}`,
      );
    }
    found = field;
  }
  if (found === undefined) {
    throw invalidField(
      path,
      `a part needs one of ${dataFields.join(", ")} (other part kinds are not supported)`,
    );
  }
  return found;
}

export interface PartParseContext {
  book: NativeBookkeeping;
  /** The id for a function call that carries none. */
  nextCallId: () => string;
}

const cacheControlFrom = (wire: NativeCacheControl): CacheControl =>
  wire.ttl === undefined ? { type: "ephemeral" } : { type: "ephemeral", ttl: wire.ttl };

function parseMedia(
  part: NativePart,
  field: "inlineData" | "fileData",
  ctx: PartParseContext,
): ImagePart | FilePart {
  let media: ImagePart | FilePart;
  if (field === "inlineData") {
    media = mediaFromInlineData(part.inlineData!);
  } else {
    const data = part.fileData!;
    media = mediaFromFileData(data);
    // The canonical image URL has no media type; keep the sent one where the render would differ.
    if (media.type === "image" && data.mimeType !== renderedImageType(data.fileUri)) {
      ctx.book.imageTypes ??= {};
      ctx.book.imageTypes[data.fileUri] = data.mimeType ?? null;
    }
  }
  if (part.cache_control) media.cacheControl = cacheControlFrom(part.cache_control);
  return media;
}

function parseText(part: NativePart): UserPart & { type: "text" } {
  const text: UserPart & { type: "text" } = { type: "text", text: part.text as string };
  if (part.cache_control) text.cacheControl = cacheControlFrom(part.cache_control);
  if (part.thoughtSignature !== undefined) text.signature = part.thoughtSignature;
  return text;
}

/** A part of a user turn other than a function response. */
export function parseUserPart(
  part: NativePart,
  field: Exclude<NativeDataField, "functionResponse">,
  path: readonly PropertyKey[],
  ctx: PartParseContext,
): UserPart {
  if (field === "functionCall") throw invalidField(path, "a user turn cannot hold a functionCall");
  if (field === "executableCode" || field === "codeExecutionResult") {
    return { type: "text", text: codeExecutionText(part) ?? "" };
  }
  if (field === "text") {
    if (part.thought) throw invalidField([...path, "thought"], "a user turn cannot hold thoughts");
    return parseText(part);
  }
  return parseMedia(part, field, ctx);
}

/** A part of a model turn (request history or response candidate). */
export function parseAssistantPart(
  part: NativePart,
  path: readonly PropertyKey[],
  ctx: PartParseContext,
): AssistantPart {
  const field = dataFieldOf(part, path);
  switch (field) {
    case "text": {
      if (!part.thought) return parseText(part);
      const thinking: AssistantPart = { type: "thinking", text: part.text as string };
      if (part.thoughtSignature !== undefined) thinking.signature = part.thoughtSignature;
      return thinking;
    }
    case "functionCall": {
      const call = part.functionCall!;
      const toolCall: AssistantPart = {
        type: "tool-call",
        id: call.id ?? ctx.nextCallId(),
        name: call.name,
        arguments: stringifyJsonKeepingNumbers(call.args ?? {}),
      };
      if (part.thoughtSignature !== undefined) toolCall.signature = part.thoughtSignature;
      if (part.cache_control) toolCall.cacheControl = cacheControlFrom(part.cache_control);
      return toolCall;
    }
    case "functionResponse":
      throw invalidField(path, "a model turn cannot hold a functionResponse");
    case "executableCode":
    case "codeExecutionResult":
      return { type: "text", text: codeExecutionText(part) ?? "" };
    default:
      return parseMedia(part, field, ctx);
  }
}

// ---- render ----------------------------------------------------------------------------------

export interface PartRenderContext {
  book: NativeBookkeeping;
  options: RenderOptions | undefined;
}

function withCacheControl(part: NativePart, cacheControl: CacheControl | undefined): NativePart {
  if (cacheControl !== undefined) part.cache_control = { ...cacheControl };
  return part;
}

function renderMedia(
  part: ImagePart | FilePart,
  feature: string,
  ctx: PartRenderContext,
): NativePart {
  const warn = ctx.options?.onWarning;
  if (part.type === "file") warnDocumentFields(part, feature, warn);
  if (part.type === "image") {
    if (part.detail !== undefined) {
      warn?.({
        type: "dropped",
        feature: `${feature}.detail`,
        message: "parts carry no image detail",
      });
    }
    const source = part.source;
    if (source.type === "base64") {
      return withCacheControl(
        { inlineData: { mimeType: source.mediaType, data: source.data } },
        part.cacheControl,
      );
    }
    const kept = ctx.book.imageTypes;
    const fileData: NonNullable<NativePart["fileData"]> = { fileUri: source.url };
    if (kept !== undefined && Object.hasOwn(kept, source.url)) {
      const type = kept[source.url];
      if (typeof type === "string") fileData.mimeType = type;
    } else {
      const guessed = guessImageType(source.url);
      fileData.mimeType = guessed ?? defaultImageType;
      if (guessed === undefined) {
        warn?.({
          type: "mapped",
          feature: `${feature}.source.url`,
          message: `fileData needs a mimeType and the URL names no image type; sent as ${defaultImageType}`,
        });
      }
    }
    return withCacheControl({ fileData }, part.cacheControl);
  }
  if (part.filename !== undefined) {
    warn?.({
      type: "dropped",
      feature: `${feature}.filename`,
      message: "parts carry no file name",
    });
  }
  const source = part.source;
  if (source.type === "file-id") {
    throw invalidRequest(
      `${feature}.source.fileId: file ids cannot be sent to this format; send the file inline or by URL`,
      `${feature}.source.fileId`,
    );
  }
  if (source.type === "base64") {
    return withCacheControl(
      { inlineData: { mimeType: source.mediaType, data: source.data } },
      part.cacheControl,
    );
  }
  const fileData: NonNullable<NativePart["fileData"]> = { fileUri: source.url };
  if (source.mediaType !== undefined) fileData.mimeType = source.mediaType;
  return withCacheControl({ fileData }, part.cacheControl);
}

function renderText(
  text: string,
  signature: string | undefined,
  cacheControl: CacheControl | undefined,
): NativePart {
  const out: NativePart = { text };
  if (signature !== undefined) out.thoughtSignature = signature;
  return withCacheControl(out, cacheControl);
}

export function renderUserPart(
  part: UserPart,
  feature: string,
  ctx: PartRenderContext,
): NativePart {
  if (part.type === "text") return renderText(part.text, part.signature, part.cacheControl);
  return renderMedia(part, feature, ctx);
}

/** Function call arguments must be an object on this wire. */
function argumentsObject(
  args: string,
  feature: string,
  options: RenderOptions | undefined,
): Record<string, unknown> {
  if (args === "") return {};
  try {
    const value: unknown = parseJsonKeepingNumbers(args);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // reported below
  }
  options?.onWarning?.({
    type: "dropped",
    feature: `${feature}.arguments`,
    message:
      "functionCall.args must be a JSON object; the arguments were not one and were sent as {}",
  });
  return {};
}

/** Returns undefined for what this format cannot carry (reported). */
export function renderAssistantPart(
  part: AssistantPart,
  feature: string,
  ctx: PartRenderContext,
): NativePart | undefined {
  switch (part.type) {
    case "text":
      if (part.citations !== undefined) {
        ctx.options?.onWarning?.({
          type: "dropped",
          feature: `${feature}.citations`,
          message: "Gemini content has no room for citations; the text is sent without them",
        });
      }
      return renderText(part.text, part.signature, part.cacheControl);
    case "thinking": {
      const out: NativePart = { text: part.text, thought: true };
      if (part.signature !== undefined) out.thoughtSignature = part.signature;
      return out;
    }
    case "redacted-thinking":
      ctx.options?.onWarning?.({
        type: "dropped",
        feature,
        message: "redacted thinking has no form in this format",
      });
      return undefined;
    case "tool-call": {
      const call: NonNullable<NativePart["functionCall"]> = {
        name: part.name,
        args: argumentsObject(part.arguments, feature, ctx.options),
      };
      // Invented ids stay out of the wire; the upstream matches results by name and order.
      if (!isGeneratedCallId(part.id)) call.id = part.id;
      const out: NativePart = { functionCall: call };
      if (part.signature !== undefined) out.thoughtSignature = part.signature;
      return withCacheControl(out, part.cacheControl);
    }
    default:
      return renderMedia(part, feature, ctx);
  }
}
