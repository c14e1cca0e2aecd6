import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, open, rename, unlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pipeline } from "node:stream/promises";
import { ByteCounter } from "./byte-counter.ts";
import { assertFileKey } from "./file-key.ts";
import type { FileStore, PutOptions } from "./file-store.ts";
import { toNodeReadable, toWebStream } from "./node-readable.ts";

const isMissing = (error: unknown) => (error as { code?: string }).code === "ENOENT";

/**
 * Files in one directory (`files_dir`), one file per key. A put writes a temporary name first
 * and renames it into place once complete, so a reader never sees half a file and a refused or
 * failed put leaves nothing behind. The directory is created on the first put.
 */
export class LocalFileStore implements FileStore {
  readonly driver = "local" as const;
  readonly #dir: string;
  #ready: Promise<unknown> | undefined;

  constructor(dir: string) {
    this.#dir = resolve(dir);
  }

  #path(key: string): string {
    assertFileKey(key);
    return join(this.#dir, key);
  }

  async put(
    key: string,
    body: ReadableStream<Uint8Array> | Uint8Array,
    options: PutOptions,
  ): Promise<number> {
    const target = this.#path(key);
    this.#ready ??= mkdir(this.#dir, { recursive: true });
    await this.#ready;
    // Keys never start with a dot, so temporary names can never collide with one.
    const temp = join(this.#dir, `.put-${randomBytes(12).toString("hex")}`);
    const counter = new ByteCounter(options.maxBytes);
    try {
      await pipeline(toNodeReadable(body), counter, createWriteStream(temp, { flags: "wx" }));
      await rename(temp, target);
    } catch (error) {
      await unlink(temp).catch(() => {});
      throw error;
    }
    return counter.bytes;
  }

  async get(key: string): Promise<ReadableStream<Uint8Array> | undefined> {
    const path = this.#path(key);
    try {
      const handle = await open(path, "r");
      return toWebStream(handle.createReadStream());
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.#path(key));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }

  async close(): Promise<void> {}
}
