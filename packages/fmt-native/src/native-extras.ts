import type { Extras, GeminiRequestExtras, Request } from "@interlingua/core-types";
import type { NativeFunctionCalling } from "./map-native-tool-choice.js";

/**
 * `extras.native` holds the wire's unknown top-level fields by their own names, so that a value
 * going in and out of this format keeps them. What the canonical model cannot say but an exact
 * round trip needs sits beside them under one reserved key, `$native` (never a real field name).
 * The parsers record something there only when the default render would differ from the input,
 * so canonical values that came from other formats carry none of it.
 */
export const bookkeepingKey = "$native";

export interface NativeBookkeeping {
  /** generationConfig fields the canonical model does not interpret (responseModalities, ...). */
  generationConfig?: Record<string, unknown>;
  /** toolConfig fields besides functionCallingConfig (retrievalConfig, ...). */
  toolConfig?: Record<string, unknown>;
  /** functionCallingConfig fields besides mode and names (streamFunctionCallArguments, ...). */
  functionCallingConfig?: Record<string, unknown>;
  /** mode and names as sent, when the canonical toolChoice cannot say them (ANY with 2 names). */
  functionCalling?: NativeFunctionCalling;
  /**
   * The response schema came as the OpenAPI-style `responseSchema`, or as a `responseJsonSchema`
   * outside the subset the render sanitises to: either is rendered back as it came.
   */
  responseSchemaField?: "responseSchema" | "responseJsonSchema";
  /** Function declaration fields besides name, description and parameters, by function name. */
  declarations?: Record<string, Record<string, unknown>>;
  /** Functions declared with `parametersJsonSchema` (rendered back unsanitised). */
  jsonSchemaFunctions?: string[];
  /** fileData image URLs whose mimeType differs from the one the renderer would write. */
  imageTypes?: Record<string, string | null>;
  /** systemInstruction's role, when one was sent. */
  systemRole?: string;
  /** A response's createTime as sent, when it says more than the canonical `created`. */
  createTime?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const stringRecord = (v: unknown) => (isRecord(v) ? v : undefined);

/** Reads the bookkeeping defensively: extras may come from anywhere. */
export function readBookkeeping(extras: Extras | undefined): NativeBookkeeping {
  const raw = extras?.native?.[bookkeepingKey];
  if (!isRecord(raw)) return {};
  const book: NativeBookkeeping = {};
  const generationConfig = stringRecord(raw.generationConfig);
  if (generationConfig) book.generationConfig = generationConfig;
  const toolConfig = stringRecord(raw.toolConfig);
  if (toolConfig) book.toolConfig = toolConfig;
  const functionCallingConfig = stringRecord(raw.functionCallingConfig);
  if (functionCallingConfig) book.functionCallingConfig = functionCallingConfig;
  if (isRecord(raw.functionCalling)) {
    const { mode, allowedFunctionNames } = raw.functionCalling;
    const calling: NativeFunctionCalling = {};
    if (typeof mode === "string") calling.mode = mode as NonNullable<NativeFunctionCalling["mode"]>;
    if (Array.isArray(allowedFunctionNames)) {
      calling.allowedFunctionNames = allowedFunctionNames.filter((n) => typeof n === "string");
    }
    book.functionCalling = calling;
  }
  if (
    raw.responseSchemaField === "responseSchema" ||
    raw.responseSchemaField === "responseJsonSchema"
  )
    book.responseSchemaField = raw.responseSchemaField;
  if (isRecord(raw.declarations)) {
    const declarations: Record<string, Record<string, unknown>> = {};
    for (const [name, fields] of Object.entries(raw.declarations)) {
      if (isRecord(fields)) declarations[name] = fields;
    }
    book.declarations = declarations;
  }
  if (Array.isArray(raw.jsonSchemaFunctions)) {
    book.jsonSchemaFunctions = raw.jsonSchemaFunctions.filter((n) => typeof n === "string");
  }
  if (isRecord(raw.imageTypes)) {
    const imageTypes: Record<string, string | null> = {};
    for (const [url, type] of Object.entries(raw.imageTypes)) {
      if (typeof type === "string" || type === null) imageTypes[url] = type;
    }
    book.imageTypes = imageTypes;
  }
  if (typeof raw.systemRole === "string") book.systemRole = raw.systemRole;
  if (typeof raw.createTime === "string") book.createTime = raw.createTime;
  return book;
}

/** The wire's unknown top-level fields kept in extras.native (the bookkeeping excluded). */
export function readUnknownFields(extras: Extras | undefined): Record<string, unknown> {
  const native = extras?.native;
  if (native === undefined) return {};
  if (!(bookkeepingKey in native)) return native;
  const { [bookkeepingKey]: _book, ...rest } = native;
  return rest;
}

/** extras for a parsed value, or undefined when there is nothing to keep. */
export function buildExtras(
  unknown: Record<string, unknown>,
  book: NativeBookkeeping,
): Extras | undefined {
  const hasUnknown = Object.keys(unknown).length > 0;
  const hasBook = Object.keys(book).length > 0;
  if (!hasUnknown && !hasBook) return undefined;
  return { native: hasBook ? { ...unknown, [bookkeepingKey]: book } : unknown };
}

/** `request.providerExtras.gemini`, created on first write (the parser fills it field by field). */
export function geminiRequestExtras(request: Request): GeminiRequestExtras {
  request.providerExtras ??= {};
  request.providerExtras.gemini ??= {};
  return request.providerExtras.gemini;
}
