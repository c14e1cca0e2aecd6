import { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import { internalError } from "@interlingua/errors";
import type { Context, Hono } from "hono";
import type { AppEnv, KeyedEnv } from "../contract/app-env.ts";
import { checkUnknownFields } from "../contract/unknown-fields.ts";
import { newFileKey } from "../files/file-key.ts";
import { publicFileUrl } from "../files/public-file-url.ts";
import {
  drainBody,
  type ImageSink,
  type ReceivedImage,
  receiveImageUpload,
} from "../files/receive-image-upload.ts";
import { UPLOAD_BODY_LIMIT, UPLOAD_MAX_BYTES, UPLOAD_TTL_MS } from "../files/upload-limits.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { requireKey } from "./require-key.ts";

/** docs/api-reference.md's upload record, flat (no `{code, data}` wrapper). */
export interface UploadRecord {
  url: string;
  filename: string;
  content_type: string;
  bytes: number;
  created_at: number;
}

/**
 * The request body as a Node stream: on the Node server the request itself (read as it arrives,
 * never through a web stream or a buffer), elsewhere (app.request in tests) the web body.
 */
function bodySource(request: Request, env: unknown): Readable {
  const incoming = (env as { incoming?: unknown } | undefined)?.incoming;
  if (incoming instanceof IncomingMessage) return incoming;
  if (request.body === null) return Readable.from([]);
  return Readable.fromWeb(request.body as unknown as NodeWebStream<Uint8Array>);
}

/** A name fit to show back: no control characters, at most 255 characters. */
const cleanName = (name: string | undefined, image: ReceivedImage): string => {
  const clean = (name ?? "").replace(/[\u0000-\u001f\u007f]/g, "").slice(0, 255);
  return clean === "" ? `upload.${image.type.extension}` : clean;
};

/**
 * `POST /v1/uploads/images` (docs/api-reference.md): Bearer auth, one multipart field `file`, 20 MB.
 * Its errors are thrown and answered in the upload error body, with `Connection: close` when the
 * request was not read to its end.
 */
export function mountUploadRoutes(app: Hono<AppEnv>, services: GatewayServices): void {
  const sink: ImageSink = {
    async put(type, body) {
      const key = newFileKey(type.extension);
      const bytes = await services.fileStore.put(key, body, {
        contentType: type.contentType,
        maxBytes: UPLOAD_MAX_BYTES,
      });
      return { key, bytes };
    },
    remove: (key) => services.fileStore.delete(key),
  };

  // The route's refusals take the upload body; so does a key that could not be checked at all
  // (a database outage), through the path's envelope (route-envelope.ts).
  const keyed = requireKey(services, {
    // Read (and drop) the body first, so the refusal arrives on a connection still in use.
    beforeRefusal: async (c) => {
      c.set("errors", "upload");
      const end = await drainBody(bodySource(c.req.raw, c.env), UPLOAD_BODY_LIMIT);
      if (end !== "read") c.set("closeConnection", true);
    },
  });

  app.post("/v1/uploads/images", keyed, async (c: Context<KeyedEnv>) => {
    c.set("errors", "upload");
    const source = bodySource(c.req.raw, c.env);
    const storeFailed = (err: unknown) => {
      services.log.error({ requestId: c.get("requestId"), err }, "upload could not be stored");
      return internalError("failed to store the image");
    };
    let result: Awaited<ReturnType<typeof receiveImageUpload>>;
    try {
      result = await receiveImageUpload(source, c.req.header("content-type") ?? "", sink, {
        maxFileBytes: UPLOAD_MAX_BYTES,
        maxBodyBytes: UPLOAD_BODY_LIMIT,
      });
    } catch (err) {
      throw storeFailed(err);
    }
    if (!result.ok) {
      if (result.close) c.set("closeConnection", true);
      throw result.error;
    }
    const { image } = result;
    // Parts other than `file` are not kept: named in the warnings header, or refused when strict.
    const fields = checkUnknownFields(c.req.raw.headers, result.ignored, {});
    if (!fields.ok) {
      await services.fileStore.delete(image.key).catch(() => {});
      throw fields.error;
    }
    const createdAt = services.now();
    const filename = cleanName(image.filename, image);
    try {
      await services.store.files.insert({
        key: image.key,
        userId: c.get("token").userId,
        purpose: "upload",
        filename,
        contentType: image.type.contentType,
        bytes: image.bytes,
        createdAt,
        expiresAt: createdAt + UPLOAD_TTL_MS,
      });
    } catch (err) {
      await services.fileStore.delete(image.key).catch(() => {});
      throw storeFailed(err);
    }
    const record: UploadRecord = {
      url: publicFileUrl(services, image.key),
      filename,
      content_type: image.type.contentType,
      bytes: image.bytes,
      created_at: Math.floor(createdAt / 1000),
    };
    return c.json(record, 200, fields.headers);
  });
}
