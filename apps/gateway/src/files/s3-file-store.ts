import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import type { S3FilesConfig } from "../config/config-schema.ts";
import { FileTooLargeError } from "./file-errors.ts";
import { assertFileKey } from "./file-key.ts";
import type { FileStore, PutOptions } from "./file-store.ts";
import { toNodeReadable } from "./node-readable.ts";

/** S3's smallest multipart part (except the last): the most a put holds in memory. */
export const S3_PART_BYTES = 5 * 1024 * 1024;

export function s3ClientConfig(config: S3FilesConfig): S3ClientConfig {
  return {
    region: config.region,
    ...(config.endpoint === undefined ? {} : { endpoint: config.endpoint }),
    forcePathStyle: config.force_path_style,
    // Absent keys leave the SDK's default chain: AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, profiles...
    ...(config.access_key_id !== undefined && config.secret_access_key !== undefined
      ? {
          credentials: {
            accessKeyId: config.access_key_id,
            secretAccessKey: config.secret_access_key,
          },
        }
      : {}),
    // Checksums only where S3 requires them: many S3-compatible servers reject the newer
    // default (CRC32 on every upload, aws-chunked trailers).
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  };
}

const isMissing = (error: unknown) =>
  error instanceof NoSuchKey ||
  (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

/**
 * Large puts go up as multipart, one 5 MiB part at a time, so at most one part is in memory; a
 * failed put aborts the upload, leaving nothing.
 */
export class S3FileStore implements FileStore {
  readonly driver = "s3" as const;
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #prefix: string;

  constructor(config: S3FilesConfig, client = new S3Client(s3ClientConfig(config))) {
    this.#client = client;
    this.#bucket = config.bucket;
    const prefix = config.prefix ?? "";
    this.#prefix = prefix === "" || prefix.endsWith("/") ? prefix : `${prefix}/`;
  }

  #key(key: string): string {
    assertFileKey(key);
    return this.#prefix + key;
  }

  async put(
    key: string,
    body: ReadableStream<Uint8Array> | Uint8Array,
    options: PutOptions,
  ): Promise<number> {
    const target = { Bucket: this.#bucket, Key: this.#key(key) };
    const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
    const source = toNodeReadable(body);
    // Grown up to one part as bytes come, so a small file never allocates a whole part.
    let part = Buffer.allocUnsafe(64 * 1024);
    let filled = 0;
    let total = 0;
    let uploadId: string | undefined;
    const parts: { PartNumber: number; ETag: string }[] = [];
    const sendPart = async () => {
      uploadId ??= (
        await this.#client.send(
          new CreateMultipartUploadCommand({ ...target, ContentType: options.contentType }),
        )
      ).UploadId;
      const PartNumber = parts.length + 1;
      const sent = await this.#client.send(
        new UploadPartCommand({
          ...target,
          UploadId: uploadId,
          PartNumber,
          Body: part.subarray(0, filled),
          ContentLength: filled,
        }),
      );
      parts.push({ PartNumber, ETag: sent.ETag ?? "" });
      filled = 0;
    };
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        total += chunk.byteLength;
        if (total > maxBytes) throw new FileTooLargeError(maxBytes);
        let offset = 0;
        while (offset < chunk.byteLength) {
          const take = Math.min(chunk.byteLength - offset, S3_PART_BYTES - filled);
          if (filled + take > part.length) {
            const grown = Buffer.allocUnsafe(
              Math.min(S3_PART_BYTES, Math.max(filled + take, part.length * 2)),
            );
            part.copy(grown, 0, 0, filled);
            part = grown;
          }
          chunk.copy(part, filled, offset, offset + take);
          filled += take;
          offset += take;
          if (filled === S3_PART_BYTES) await sendPart();
        }
      }
      if (uploadId === undefined) {
        await this.#client.send(
          new PutObjectCommand({
            ...target,
            Body: part.subarray(0, filled),
            ContentLength: filled,
            ContentType: options.contentType,
          }),
        );
      } else {
        if (filled > 0) await sendPart();
        await this.#client.send(
          new CompleteMultipartUploadCommand({
            ...target,
            UploadId: uploadId,
            MultipartUpload: { Parts: parts },
          }),
        );
      }
    } catch (error) {
      source.destroy();
      if (uploadId !== undefined) {
        await this.#client
          .send(new AbortMultipartUploadCommand({ ...target, UploadId: uploadId }))
          .catch(() => {});
      }
      throw error;
    }
    return total;
  }

  async get(key: string): Promise<ReadableStream<Uint8Array> | undefined> {
    try {
      const found = await this.#client.send(
        new GetObjectCommand({ Bucket: this.#bucket, Key: this.#key(key) }),
      );
      return found.Body?.transformToWebStream() as ReadableStream<Uint8Array> | undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: this.#key(key) }));
  }

  async close(): Promise<void> {
    this.#client.destroy();
  }
}
