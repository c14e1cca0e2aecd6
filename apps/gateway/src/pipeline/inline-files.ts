import {
  type Request as CanonicalRequest,
  type FilePart,
  parseDataUrl,
  type UserPart,
} from "@interlingua/core-types";
import { invalidRequest, payloadTooLarge } from "@interlingua/errors";
import { fileTypeFromBuffer } from "file-type";
import type { GatewayServices } from "../services/gateway-services.ts";
import { fetchSourceBytes, fromFileStore } from "../tasks/fetch-source-image.ts";

// Files a client names by address (issue 25): a `file_url` is fetched by the gateway with the
// rules of image URLs (public addresses only, pinned, no redirects, size-capped), and a
// `file_id` naming one of the caller's own gateway files is read from the file store; both then
// travel inline, so every upstream gets the bytes (chat takes no file URLs; Gemini's fileData
// takes its own file URIs only). A file_id not shaped like the gateway's keys is the
// provider's: it is passed on as given. Only PDFs and plain text are files; an image read this way is an image.

/** The most one file may weigh (Anthropic's and OpenAI's PDF limit). */
export const MAX_INPUT_FILE_BYTES = 32 * 1024 * 1024;

/** The shape of the gateway's own file keys (file-key.ts: 32 base62 characters and a type). */
const GATEWAY_FILE_KEY = /^[A-Za-z0-9]{32}\.[A-Za-z0-9]{1,10}$/;

const TEXT_TYPES = new Set(["text/plain", "text/markdown", "text/csv"]);
const IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

const needsReading = (part: UserPart): part is FilePart =>
  part.type === "file" &&
  ((part.source.type === "url" && parseDataUrl(part.source.url) === undefined) ||
    (part.source.type === "file-id" && GATEWAY_FILE_KEY.test(part.source.fileId)));

/** Whether a request names any file the gateway must read first (cheap; most do not). */
export const namesFiles = (request: CanonicalRequest): boolean =>
  request.messages.some((m) => m.role === "user" && m.parts.some(needsReading));

/** PDF, image, or text (valid UTF-8 without NUL); undefined for anything else. */
async function mediaTypeOf(bytes: Buffer): Promise<string | undefined> {
  const sniffed = await fileTypeFromBuffer(bytes);
  if (sniffed !== undefined) {
    return sniffed.mime === "application/pdf" || IMAGE_TYPES.has(sniffed.mime)
      ? sniffed.mime
      : undefined;
  }
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return text.includes("\u0000") ? undefined : "text/plain";
  } catch {
    return undefined;
  }
}

async function inlinePart(
  services: GatewayServices,
  userId: string,
  part: FilePart,
  at: string,
): Promise<UserPart> {
  const source = part.source;
  const got =
    source.type === "url"
      ? await fetchSourceBytes(services, source.url, MAX_INPUT_FILE_BYTES, "file")
      : await fromFileStore(
          services,
          (source as { fileId: string }).fileId,
          MAX_INPUT_FILE_BYTES,
          "file",
          userId,
        );
  if (!got.ok) {
    throw got.message.includes("larger than")
      ? payloadTooLarge(`${at}: ${got.message}`, { param: at })
      : invalidRequest(`${at}: ${got.message}`, at);
  }
  const mediaType = await mediaTypeOf(got.bytes);
  if (mediaType === undefined) {
    throw invalidRequest(`${at}: only PDF, plain-text and image files are accepted`, at);
  }
  const data = got.bytes.toString("base64");
  if (IMAGE_TYPES.has(mediaType)) {
    return { type: "image", source: { type: "base64", mediaType, data } };
  }
  // A declared text type (markdown, csv) is kept; what the bytes say wins otherwise.
  const declared = source.type === "url" ? source.mediaType : undefined;
  const type =
    mediaType === "text/plain" && declared && TEXT_TYPES.has(declared) ? declared : mediaType;
  const inlined: FilePart = { ...part, source: { type: "base64", mediaType: type, data } };
  return inlined;
}

/** The request with every file it names by address read and inlined; a 400/413 is thrown if one fails. */
export async function inlineFiles(
  services: GatewayServices,
  userId: string,
  request: CanonicalRequest,
): Promise<CanonicalRequest> {
  const messages = [...request.messages];
  for (const [i, message] of messages.entries()) {
    if (message.role !== "user" || !message.parts.some(needsReading)) continue;
    const parts: UserPart[] = [];
    for (const [j, part] of message.parts.entries()) {
      if (!needsReading(part)) {
        parts.push(part);
        continue;
      }
      parts.push(await inlinePart(services, userId, part, `messages[${i}].parts[${j}]`));
    }
    messages[i] = { ...message, parts };
  }
  return { ...request, messages };
}
