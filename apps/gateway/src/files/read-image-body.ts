import type { Readable } from "node:stream";
import type { GatewayError } from "@interlingua/errors";
import { invalidRequest, payloadTooLarge } from "@interlingua/errors";
import { FileTooLargeError } from "./file-errors.ts";
import type { ImageType } from "./image/image-types.ts";
import { UPLOAD_TYPE_NAMES } from "./image/image-types.ts";
import { SNIFF_BYTES, sniffImage } from "./image/sniff-image.ts";
import { BadImageError, StructureParser } from "./image/structure-walk.ts";
import { discardRest, nextChunk } from "./next-chunk.ts";

/** A file part as the multipart parser gives it: `truncated` once it went past its size limit. */
export type FilePart = Readable & { readonly truncated: boolean };

export type ImageBody =
  | { readonly ok: true; readonly type: ImageType; readonly body: ReadableStream<Uint8Array> }
  | { readonly ok: false; readonly error: GatewayError };

export const tooLargeError = (maxBytes: number) =>
  payloadTooLarge(`file size above ${maxBytes} bytes`);

/** The error a failed image body ended with, or undefined when the body was fine (the store failed). */
export type BodyFailure = () => GatewayError | undefined;

/**
 * Checks every byte as it passes (size cap, the format's structure), so a bad image fails the
 * stream before it closes and the store keeps nothing; an unread rest is discarded for the parser.
 */
export async function readImageBody(
  file: FilePart,
  maxBytes: number,
  signal: AbortSignal,
): Promise<ImageBody & { failure: BodyFailure }> {
  let failure: GatewayError | undefined;
  const failed: BodyFailure = () => failure;
  const head: Buffer[] = [];
  let headBytes = 0;
  let ended = false;
  while (headBytes < SNIFF_BYTES) {
    const chunk = await nextChunk(file, signal);
    if (chunk === null) {
      ended = true;
      break;
    }
    head.push(chunk);
    headBytes += chunk.byteLength;
  }
  if (headBytes === 0)
    return { ok: false, error: invalidRequest("the file is empty", "file"), failure: failed };
  const first = Buffer.concat(head, headBytes);
  const type = await sniffImage(first);
  if (type === undefined) {
    if (!ended) discardRest(file);
    return {
      ok: false,
      error: invalidRequest(`unsupported image type (allowed: ${UPLOAD_TYPE_NAMES})`, "file"),
      failure: failed,
    };
  }
  const parser = new StructureParser(type.structure());
  let pending: Buffer | undefined = first;
  let seen = 0;
  const stop = () => {
    if (!ended) {
      ended = true;
      discardRest(file);
    }
  };
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const chunk = pending ?? (ended ? null : await nextChunk(file, signal));
          pending = undefined;
          if (chunk === null) {
            ended = true;
            // Cut at the limit by the multipart parser: larger than allowed, whatever it holds.
            if (file.truncated || seen > maxBytes) throw new FileTooLargeError(maxBytes);
            parser.end();
            controller.close();
            return;
          }
          seen += chunk.byteLength;
          if (seen > maxBytes) throw new FileTooLargeError(maxBytes);
          parser.push(chunk);
          controller.enqueue(chunk);
        } catch (error) {
          failure = bodyError(error, type, maxBytes);
          stop();
          controller.error(error);
        }
      },
      cancel() {
        stop();
      },
    },
    { highWaterMark: 0 },
  );
  return { ok: true, type, body, failure: failed };
}

function bodyError(error: unknown, type: ImageType, maxBytes: number): GatewayError {
  if (error instanceof FileTooLargeError) return tooLargeError(maxBytes);
  if (error instanceof BadImageError)
    return invalidRequest(`invalid ${type.extension} image: ${error.message}`, "file");
  return invalidRequest("the upload ended before the whole file arrived", "file");
}
