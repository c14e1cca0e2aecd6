import type { Readable } from "node:stream";
import Busboy from "@fastify/busboy";
import { type GatewayError, invalidRequest, payloadTooLarge } from "@interlingua/errors";
import { FileTooLargeError } from "./file-errors.ts";
import type { ImageType } from "./image/image-types.ts";
import { discardRest } from "./next-chunk.ts";
import { type FilePart, readImageBody, tooLargeError } from "./read-image-body.ts";

/** Where an accepted image goes: `put` rejects (keeping nothing) when the body fails. */
export interface ImageSink {
  put(type: ImageType, body: ReadableStream<Uint8Array>): Promise<{ key: string; bytes: number }>;
  remove(key: string): Promise<void>;
}

export interface UploadLimits {
  /** The image itself. */
  readonly maxFileBytes: number;
  /** The whole request body: past it reading stops (see UPLOAD_BODY_LIMIT). */
  readonly maxBodyBytes: number;
}

export interface ReceivedImage {
  readonly key: string;
  readonly type: ImageType;
  readonly filename: string | undefined;
  readonly bytes: number;
}

export type UploadResult =
  /** `ignored`: the names of the other parts, read and dropped (the caller says so). */
  | { readonly ok: true; readonly image: ReceivedImage; readonly ignored: readonly string[] }
  /** `close`: the body was not read to its end, so the connection cannot be reused. */
  | { readonly ok: false; readonly error: GatewayError; readonly close: boolean };

/** Thrown by `put` when the store itself failed (not the body): the 500 of docs/api-reference.md. */
export class StoreFailure extends Error {
  constructor(cause: unknown) {
    super("failed to store the image", { cause });
    this.name = "StoreFailure";
  }
}

type FileOutcome =
  | { ok: true; image: ReceivedImage }
  | { ok: false; error: GatewayError | StoreFailure };

type BodyEnd = "read" | "over-limit" | "aborted" | "malformed";

const MULTIPART = /^multipart\/form-data\s*(;|$)/i;

/** Reads `source` to its end (or `maxBytes`), keeping nothing. */
export function drainBody(source: Readable, maxBytes: number): Promise<BodyEnd> {
  return new Promise((resolve) => {
    let total = 0;
    const onData = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > maxBytes) finish("over-limit");
    };
    const finish = (end: BodyEnd) => {
      source.off("data", onData);
      source.pause();
      resolve(end);
    };
    if (source.readableEnded) {
      resolve("read");
      return;
    }
    source.on("data", onData);
    source.once("end", () => finish("read"));
    source.once("error", () => finish("aborted"));
    source.resume();
  });
}

/**
 * The request is always read to its end (up to maxBodyBytes) before answering, so every answer,
 * a 413 included, reaches the client on a connection it can keep using; a failure keeps nothing.
 */
export async function receiveImageUpload(
  source: Readable,
  contentType: string,
  sink: ImageSink,
  limits: UploadLimits,
): Promise<UploadResult> {
  if (!MULTIPART.test(contentType)) {
    const end = await drainBody(source, limits.maxBodyBytes);
    return refuse(
      invalidRequest("the body must be multipart/form-data with a field named file"),
      end,
    );
  }
  let parser: ReturnType<typeof Busboy>;
  try {
    parser = Busboy({
      headers: { "content-type": contentType },
      defCharset: "utf8",
      limits: {
        fileSize: limits.maxFileBytes,
        files: 8,
        fields: 32,
        parts: 40,
        fieldSize: 64 * 1024,
        headerPairs: 32,
      },
    });
  } catch {
    const end = await drainBody(source, limits.maxBodyBytes);
    return refuse(invalidRequest("malformed multipart/form-data content type"), end);
  }

  const stop = new AbortController();
  let fileFields = 0;
  let textFileField = false;
  const ignored = new Set<string>();
  let received: Promise<FileOutcome> | undefined;
  parser.on("file", (name, file, filename) => {
    // A part that breaks off errors its stream; the parser reports the same error ("malformed").
    file.on("error", () => {});
    if (name !== "file") ignored.add(name);
    if (name !== "file" || ++fileFields > 1) {
      discardRest(file);
      return;
    }
    received = receiveFile(file as FilePart, filename, sink, limits.maxFileBytes, stop.signal);
  });
  parser.on("field", (name) => {
    if (name === "file") textFileField = true;
    else ignored.add(name);
  });

  const end = await new Promise<BodyEnd>((resolve) => {
    let total = 0;
    const settle = (how: BodyEnd) => {
      source.off("data", count);
      source.unpipe(parser);
      if (how !== "read") stop.abort(new Error(`upload body ${how}`));
      resolve(how);
    };
    const count = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > limits.maxBodyBytes) {
        source.pause();
        settle("over-limit");
      }
    };
    parser.once("finish", () => settle("read"));
    parser.on("error", () => settle("malformed"));
    source.on("error", () => settle("aborted"));
    source.once("close", () => {
      if (!source.readableEnded) settle("aborted");
    });
    source.on("data", count);
    source.pipe(parser);
  });
  const outcome = await received;

  // A file stored before the request turned out bad is removed before the answer.
  const refused = async (error: GatewayError, close = false): Promise<UploadResult> => {
    if (outcome?.ok) await sink.remove(outcome.image.key).catch(() => {});
    return { ok: false, error, close };
  };
  if (end === "over-limit") return refused(tooLargeError(limits.maxFileBytes), true);
  if (end === "aborted") return refused(invalidRequest("the upload was interrupted"), true);
  if (end === "malformed") {
    // The rest of a body the parser gave up on is read and dropped before the answer.
    const after = await drainBody(source, limits.maxBodyBytes);
    return refused(invalidRequest("malformed multipart/form-data body"), after !== "read");
  }
  if (fileFields > 1) return refused(invalidRequest("send one file in the field file", "file"));
  if (outcome === undefined) {
    return refused(
      invalidRequest(
        textFileField ? "the field file must be a file, not text" : "missing file field",
        "file",
      ),
    );
  }
  if (!outcome.ok) {
    if (outcome.error instanceof StoreFailure) throw outcome.error;
    return refused(outcome.error);
  }
  return { ...outcome, ignored: [...ignored] };
}

function refuse(error: GatewayError, end: BodyEnd): UploadResult {
  return end === "over-limit"
    ? { ok: false, error: payloadTooLarge("request body too large"), close: true }
    : { ok: false, error, close: end !== "read" };
}

async function receiveFile(
  file: FilePart,
  filename: string | undefined,
  sink: ImageSink,
  maxBytes: number,
  signal: AbortSignal,
): Promise<FileOutcome> {
  try {
    const image = await readImageBody(file, maxBytes, signal);
    if (!image.ok) return image;
    try {
      const stored = await sink.put(image.type, image.body);
      return { ok: true, image: { ...stored, type: image.type, filename } };
    } catch (error) {
      discardRest(file);
      const failure = image.failure();
      if (failure !== undefined) return { ok: false, error: failure };
      if (error instanceof FileTooLargeError) return { ok: false, error: tooLargeError(maxBytes) };
      return { ok: false, error: new StoreFailure(error) };
    }
  } catch {
    // The part failed while its head was read (the body broke off): the caller names why.
    discardRest(file);
    return { ok: false, error: invalidRequest("the upload ended before the whole file arrived") };
  }
}
