import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Busboy, type BusboyFileStream } from "@fastify/busboy";
import {
  type GatewayError,
  internalError,
  invalidRequest,
  payloadTooLarge,
} from "@interlingua/errors";

/** The uploaded file, spooled to a private temp file; `dispose` deletes it (idempotent). */
export interface SpooledFile {
  readonly path: string;
  readonly size: number;
  /** As the client named it (not trusted for the type). */
  readonly filename: string;
  dispose(): Promise<void>;
}

export type AudioForm =
  | { ok: true; fields: Record<string, string[]>; file: SpooledFile | undefined }
  | {
      ok: false;
      error: GatewayError /** The rest of the body was not read: close the connection. */;
      cut: boolean;
    };

export interface AudioFormLimits {
  /** The file's cap, enforced while it is read. */
  readonly fileBytes: number;
  /**
   * How much of a body is read in all: past the file's cap the rest is still read and discarded
   * (up to this) so the client can be answered 413 instead of having its upload cut off.
   */
  readonly bodyBytes: number;
  /** Where files are spooled (default: `interlingua-audio/<pid>` in the OS temp directory). */
  readonly dir?: string;
}

const FIELD_LIMITS = { fieldNameSize: 100, fieldSize: 16 * 1024, fields: 16, files: 1, parts: 24 };

/**
 * Streams the `file` part straight to a temp file (size cap enforced while reading), so an upload
 * is never whole in memory; the temp file is deleted on any refusal.
 */
export async function readAudioForm(request: Request, limits: AudioFormLimits): Promise<AudioForm> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    return refused(
      invalidRequest("the body must be multipart/form-data with a file field", "file"),
    );
  }
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > limits.bodyBytes || request.body === null) {
    return declared > limits.bodyBytes
      ? { ok: false, error: tooLarge(limits.fileBytes), cut: true }
      : refused(invalidRequest("the form has no file field", "file"));
  }

  // One folder per process: what another gateway process spools is never this one's to see.
  const dir = limits.dir ?? join(tmpdir(), "interlingua-audio", String(process.pid));
  await mkdir(dir, { recursive: true, mode: 0o700 });
  let parser: ReturnType<typeof Busboy>;
  try {
    parser = Busboy({
      headers: { "content-type": contentType },
      limits: { ...FIELD_LIMITS, fileSize: limits.fileBytes },
    });
  } catch {
    return refused(invalidRequest("the multipart body has no boundary", "file"));
  }

  // No prototype: a field named __proto__ is a field like any other.
  const fields: Record<string, string[]> = Object.create(null);
  let problem: GatewayError | undefined;
  const fail = (error: GatewayError) => {
    problem ??= error;
  };
  let spool: Spool | undefined;
  parser.on("field", (name, value, _nameTruncated, valueTruncated) => {
    if (valueTruncated) fail(invalidRequest(`${name}: the field is too long`, name));
    const values = fields[name] ?? [];
    values.push(value);
    fields[name] = values;
  });
  parser.on("file", (name, stream, filename) => {
    if (name !== "file" || spool !== undefined) {
      fail(invalidRequest(`unexpected file field ${name}: send one audio file as "file"`, name));
      // The part is only drained: a body that ends inside it must not throw an unhandled error.
      stream.on("error", () => {});
      stream.resume();
      return;
    }
    spool = new Spool(stream, filename, dir);
  });
  for (const limit of ["partsLimit", "filesLimit", "fieldsLimit"] as const) {
    parser.on(limit, () => fail(invalidRequest("the form has too many parts", "file")));
  }
  const finished = new Promise<void>((resolve, reject) => {
    parser.on("finish", resolve);
    parser.on("error", reject);
  });
  finished.catch(() => {}); // awaited below; a parse error may come before that

  const reader = request.body.getReader();
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      read += value.byteLength;
      if (read > limits.bodyBytes) {
        await reader.cancel().catch(() => {});
        await spool?.discard();
        return { ok: false, error: tooLarge(limits.fileBytes), cut: true };
      }
      if (!parser.write(value)) await once(parser, "drain");
    }
    parser.end();
    await finished;
    await spool?.done;
  } catch (error) {
    await reader.cancel().catch(() => {});
    await spool?.discard();
    if (spool?.failed === true) {
      return refused(internalError("the upload could not be stored", { cause: error }));
    }
    return refused(invalidRequest("the multipart body could not be read", "file"));
  }
  if (spool?.tooLarge === true) {
    await spool.discard();
    return refused(tooLarge(limits.fileBytes));
  }
  if (problem !== undefined) {
    await spool?.discard();
    return refused(problem);
  }
  return { ok: true, fields, file: spool?.file() };
}

const refused = (error: GatewayError): AudioForm => ({ ok: false, error, cut: false });

const tooLarge = (limit: number) =>
  payloadTooLarge(`file: the audio is over the limit of ${limit} bytes (25 MB)`, { param: "file" });

/** The file part written to disk as it arrives; past the cap busboy drops the rest. */
class Spool {
  readonly path: string;
  readonly filename: string;
  /** Settles when the part has ended and its bytes are on disk. */
  readonly done: Promise<void>;
  tooLarge = false;
  /** Writing the temp file failed (the server's fault, not the client's). */
  failed = false;
  readonly #out: WriteStream;

  constructor(stream: BusboyFileStream, filename: string, dir: string) {
    this.path = join(dir, `${randomUUID()}.upload`);
    this.filename = filename;
    stream.on("limit", () => {
      this.tooLarge = true;
    });
    this.#out = createWriteStream(this.path, { flags: "wx", mode: 0o600 });
    // pipe() pauses the part (and so busboy, and so the request) while the disk catches up.
    stream.pipe(this.#out);
    this.done = new Promise<void>((resolve, reject) => {
      this.#out.on("finish", resolve);
      this.#out.on("error", (error) => {
        this.failed = true;
        // pipe() lets go of a failed destination; the part is then drained so busboy (and the
        // read loop waiting on it) does not stall.
        stream.resume();
        reject(error);
      });
      stream.on("error", reject);
    });
    this.done.catch(() => {}); // awaited by the reader; an early failure must not go unhandled
  }

  file(): SpooledFile {
    const path = this.path;
    return {
      path,
      size: this.#out.bytesWritten,
      filename: this.filename,
      dispose: () => rm(path, { force: true }),
    };
  }

  async discard(): Promise<void> {
    this.#out.destroy();
    await rm(this.path, { force: true });
  }
}
