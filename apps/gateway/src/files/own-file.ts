import { isFileKey } from "./file-key.ts";
import type { FileRecord, FileRecords, FileStore } from "./file-store.ts";
import type { PublicUrl } from "./public-file-url.ts";

/**
 * The key of a URL this gateway handed out (`publicFileUrl`), else undefined: lets code that
 * takes image URLs (generation requests) read an uploaded file from the store directly instead
 * of fetching its own public URL over the network.
 */
export function ownFileKey(services: PublicUrl, url: string): string | undefined {
  const base = `${services.publicUrl().replace(/\/+$/, "")}/files/`;
  if (!url.startsWith(base)) return undefined;
  // Keys need no escaping (base62, `_`, `-`, one dot), so the rest of the URL is the key or junk.
  const key = url.slice(base.length);
  return isFileKey(key) ? key : undefined;
}

/** A live (unexpired) file of this gateway by its URL: its record and its bytes, streamed. */
export async function openOwnFile(
  services: PublicUrl & {
    readonly store: { readonly files: Pick<FileRecords, "get"> };
    readonly fileStore: FileStore;
    readonly now: () => number;
  },
  url: string,
): Promise<{ record: FileRecord; body: ReadableStream<Uint8Array> } | undefined> {
  const key = ownFileKey(services, url);
  if (key === undefined) return undefined;
  const record = await services.store.files.get(key);
  if (record === undefined || record.expiresAt <= services.now()) return undefined;
  const body = await services.fileStore.get(key);
  return body === undefined ? undefined : { record, body };
}
