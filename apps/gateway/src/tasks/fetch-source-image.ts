import type { LookupFunction } from "node:net";
import type { InlineImage } from "@interlingua/fmt-native/veo";
import { fileTypeFromBuffer } from "file-type";
import { Agent, request } from "undici";
import type { GatewayServices } from "../services/gateway-services.ts";
import { discardBody } from "../upstream/discard-body.ts";
import { readCappedBytes } from "../upstream/read-capped.ts";
import { resolveTarget, systemLookup } from "../webhooks/resolve-target.ts";
import { serviceHosts } from "../webhooks/service-hosts.ts";
import { gifFirstFrameAsPng } from "./gif-first-frame.ts";
import { ownFileKey } from "./own-file-url.ts";

// The images a task sends upstream inline. The gateway's own upload URLs are read straight from
// the file store (no loop through HTTP, and no way to aim the fetch at the gateway itself);
// any other URL is fetched once, through the webhooks' SSRF guard (public addresses only, the
// vetted address pinned), without redirects, size-capped while reading and type-checked by its
// bytes, not by what the server claims. A GIF goes up as a PNG of its first frame.

/** Image types a Veo or image request may carry (the API reference: .jpeg, .jpg, .png, .webp). */
const ACCEPTED = new Set(["image/jpeg", "image/png", "image/webp"]);
const FETCH_TIMEOUT_MS = 15_000;

export type SourceImage = { ok: true; image: InlineImage } | { ok: false; message: string };

async function typed(bytes: Buffer): Promise<SourceImage> {
  const type = await fileTypeFromBuffer(bytes);
  if (type?.mime === "image/gif") {
    // Uploads take GIFs (the API reference); the upstreams do not.
    const converted = gifFirstFrameAsPng(bytes);
    if (!converted.ok) return converted;
    return { ok: true, image: { mimeType: "image/png", data: converted.png.toString("base64") } };
  }
  if (type === undefined || !ACCEPTED.has(type.mime)) {
    return {
      ok: false,
      message: `not a JPEG, PNG, WebP or GIF image (${type?.mime ?? "unknown type"})`,
    };
  }
  return { ok: true, image: { mimeType: type.mime, data: bytes.toString("base64") } };
}

export type SourceBytes = { ok: true; bytes: Buffer } | { ok: false; message: string };

/** A file of the gateway's own store by key, at most `maxBytes`; `userId`: only that user's. */
export async function fromFileStore(
  services: GatewayServices,
  key: string,
  maxBytes: number,
  what = "image",
  userId?: string,
): Promise<SourceBytes> {
  const record = await services.store.files.get(key);
  if (
    record === undefined ||
    record.expiresAt <= services.now() ||
    (userId !== undefined && record.userId !== userId)
  ) {
    return { ok: false, message: "the uploaded file does not exist or has expired" };
  }
  if (record.bytes > maxBytes)
    return { ok: false, message: `${what} is larger than ${maxBytes} bytes` };
  const stream = await services.fileStore.get(key);
  if (stream === undefined) return { ok: false, message: "the uploaded file is gone" };
  const bytes = await readCappedBytes(stream, maxBytes);
  if (bytes === undefined)
    return { ok: false, message: `${what} is larger than ${maxBytes} bytes` };
  return { ok: true, bytes };
}

const pinnedLookup =
  (address: string, family: 4 | 6): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all === true) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };

/** One image by URL, at most `maxBytes`, as inline data for the upstream. */
export async function fetchSourceImage(
  services: GatewayServices,
  url: string,
  maxBytes: number,
): Promise<SourceImage> {
  const got = await fetchSourceBytes(services, url, maxBytes);
  return got.ok ? typed(got.bytes) : got;
}

/**
 * The bytes at `url`, at most `maxBytes`: a gateway file from the store, anything else through
 * the SSRF guard (public addresses only, the vetted address pinned, no redirects).
 */
export async function fetchSourceBytes(
  services: GatewayServices,
  url: string,
  maxBytes: number,
  what = "image",
): Promise<SourceBytes> {
  const key = ownFileKey(services, url);
  if (key !== undefined) return fromFileStore(services, key, maxBytes, what);
  const target = await resolveTarget(url, {
    serviceHosts: serviceHosts(services.config),
    allowPrivate: services.config.webhooks.allow_private_targets,
    lookup: systemLookup,
  });
  if (target.kind === "refused")
    return { ok: false, message: `${what} URL refused: ${target.reason}` };
  if (target.kind === "unresolved") return { ok: false, message: target.error };
  const agent = new Agent({
    connect: {
      lookup: pinnedLookup(target.pinned.address, target.pinned.family),
      timeout: FETCH_TIMEOUT_MS,
    },
    headersTimeout: FETCH_TIMEOUT_MS,
    bodyTimeout: FETCH_TIMEOUT_MS,
  });
  try {
    const reply = await request(target.url, {
      method: "GET",
      dispatcher: agent,
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (reply.statusCode !== 200) {
      discardBody(reply.body);
      return { ok: false, message: `${what} URL answered ${reply.statusCode}` };
    }
    const declared = Number(reply.headers["content-length"] ?? Number.NaN);
    if (declared > maxBytes) {
      discardBody(reply.body);
      return { ok: false, message: `${what} is larger than ${maxBytes} bytes` };
    }
    // Past the cap the rest is not read: the body is destroyed.
    const bytes = await readCappedBytes(reply.body, maxBytes);
    if (bytes === undefined)
      return { ok: false, message: `${what} is larger than ${maxBytes} bytes` };
    return { ok: true, bytes };
  } catch (error) {
    return { ok: false, message: `${what} could not be fetched: ${(error as Error).message}` };
  } finally {
    await agent.destroy().catch(() => undefined);
  }
}
