import { fileTypeFromBuffer } from "file-type";
import { FileTooLargeError } from "../files/file-errors.ts";
import { newFileKey } from "../files/file-key.ts";
import { publicFileUrl } from "../files/public-file-url.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import type { TaskRow } from "../storage/task-store.ts";
import type { MediaBytes } from "./jobs/job.ts";
import { bounded } from "./upstream-call.ts";

// A finished task's bytes go to the file store and the `files` table (purpose task-result), and
// the Task shows their public URLs until they expire. The bytes are checked for what they claim
// to be: an upstream that sends an HTML error page with a 200 fails the task, it is not served.
// Downloads stream from the upstream into the store; only their first bytes are held, to judge
// the type.

const ACCEPTED: Record<"video" | "image", ReadonlySet<string>> = {
  video: new Set(["video/mp4", "video/quicktime", "video/webm"]),
  image: new Set(["image/png", "image/jpeg", "image/webp"]),
};

/** Enough of a file for its type to be recognised (file-type reads at most this much). */
const HEAD_BYTES = 4100;
/** The most one result may weigh: an 8 s 4K clip is tens of MB. */
const MAX_RESULT_BYTES = 1024 * 1024 * 1024;

export interface StoredMedia {
  readonly keys: readonly string[];
  readonly urls: readonly string[];
  /** Unix seconds, as the API reference's `expires_at`. */
  readonly expiresAt: number;
}

export type StoreOutcome =
  | { readonly ok: true; readonly stored: StoredMedia }
  /** `transient`: the download broke off; collecting again may work. */
  | { readonly ok: false; readonly transient: boolean; readonly message: string };

interface Typed {
  readonly head: Buffer;
  /** The rest of the bytes, when streamed. */
  readonly rest: AsyncIterator<Uint8Array> | undefined;
  readonly close: () => void;
  readonly mime: string;
  readonly ext: string;
}

type Opened = { ok: true; typed: Typed } | { ok: false; transient: boolean; message: string };

async function openItem(item: MediaBytes, output: "video" | "image"): Promise<Opened> {
  let head: Buffer;
  let rest: AsyncIterator<Uint8Array> | undefined;
  let close = () => {};
  if ("bytes" in item) head = item.bytes;
  else {
    const opened = await item.open();
    if (!opened.ok) return { ok: false, transient: opened.transient, message: opened.message };
    const body = opened.value.body;
    close = () => void body.destroy();
    const iterator = body[Symbol.asyncIterator]();
    const chunks: Buffer[] = [];
    let size = 0;
    let ended = false;
    try {
      while (size < HEAD_BYTES) {
        const next = await iterator.next();
        if (next.done === true) {
          ended = true;
          break;
        }
        chunks.push(Buffer.from(next.value));
        size += next.value.byteLength;
      }
    } catch (error) {
      close();
      return { ok: false, transient: true, message: bounded(String((error as Error).message)) };
    }
    head = Buffer.concat(chunks, size);
    rest = ended ? undefined : iterator;
  }
  const type = await fileTypeFromBuffer(head);
  if (type === undefined || !ACCEPTED[output].has(type.mime)) {
    close();
    return {
      ok: false,
      transient: false,
      message: `the result is not a ${output} (${type?.mime ?? "unknown type"})`,
    };
  }
  return { ok: true, typed: { head, rest, close, mime: type.mime, ext: type.ext } };
}

/** The head, then whatever the download still has. */
function bodyOf(typed: Typed): ReadableStream<Uint8Array> | Uint8Array {
  const rest = typed.rest;
  if (rest === undefined) return new Uint8Array(typed.head);
  let sentHead = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sentHead) {
        sentHead = true;
        controller.enqueue(new Uint8Array(typed.head));
        return;
      }
      const next = await rest.next();
      if (next.done === true) controller.close();
      else controller.enqueue(next.value);
    },
    cancel: () => typed.close(),
  });
}

export async function storeResults(
  services: GatewayServices,
  row: TaskRow,
  output: "video" | "image",
  media: readonly MediaBytes[],
  lifetimeMs: number,
): Promise<StoreOutcome> {
  const now = services.now();
  const expiresAt = now + lifetimeMs;
  const keys: string[] = [];
  for (const [index, item] of media.entries()) {
    const opened = await openItem(item, output);
    if (!opened.ok) {
      await discardResults(services, keys);
      return opened;
    }
    const { typed } = opened;
    const key = newFileKey(typed.ext);
    let bytes: number;
    try {
      bytes = await services.fileStore.put(key, bodyOf(typed), {
        contentType: typed.mime,
        maxBytes: MAX_RESULT_BYTES,
      });
    } catch (error) {
      typed.close();
      await discardResults(services, keys);
      const tooLarge = error instanceof FileTooLargeError;
      return {
        ok: false,
        transient: !tooLarge,
        message: tooLarge ? "the result is too large" : bounded(String((error as Error).message)),
      };
    }
    keys.push(key);
    await services.store.files.insert({
      key,
      userId: row.userId,
      purpose: "task-result",
      filename: `${row.id}-${index}.${typed.ext}`,
      contentType: typed.mime,
      bytes,
      createdAt: now,
      expiresAt,
    });
  }
  return {
    ok: true,
    stored: {
      keys,
      urls: keys.map((key) => publicFileUrl(services, key)),
      expiresAt: Math.floor(expiresAt / 1000),
    },
  };
}

/**
 * Deletes stored results nobody will see (a racing runner finished the task first, or a later
 * result failed). The bytes go now; a row left behind expires and the sweeper removes it.
 */
export async function discardResults(
  services: GatewayServices,
  keys: readonly string[],
): Promise<void> {
  for (const key of keys) await services.fileStore.delete(key).catch(() => undefined);
}
