import { notFound } from "@interlingua/errors";
import type { Hono } from "hono";
import type { AppEnv } from "../contract/app-env.ts";
import { isFileKey } from "../files/file-key.ts";
import type { GatewayServices } from "../services/gateway-services.ts";

/**
 * `GET /files/<key>`: uploads and generated results, public (the unguessable URL is the
 * capability), streamed from the file store with the type recorded at upload, until the
 * record's expiry; from then on 404, like a key that never existed.
 */
export function mountFileRoutes(app: Hono<AppEnv>, services: GatewayServices): void {
  app.get("/files/:key", async (c) => {
    // Thrown: the app's error handler answers it in the standard envelope.
    const missing = () => notFound("file not found");
    const key = c.req.param("key");
    if (!isFileKey(key)) throw missing();
    const record = await services.store.files.get(key);
    const now = services.now();
    if (record === undefined || record.expiresAt <= now) throw missing();
    const headers = {
      "content-type": record.contentType,
      "content-length": String(record.bytes),
      // Served as recorded (the sniffed type), never as whatever a browser would guess.
      "x-content-type-options": "nosniff",
      "content-disposition": "inline",
      // Never changes under its key; cacheable until it expires.
      "cache-control": `public, max-age=${Math.floor((record.expiresAt - now) / 1000)}, immutable`,
      "last-modified": new Date(record.createdAt).toUTCString(),
    };
    // HEAD answers from the record alone: opening the bytes would leave them unread.
    if (c.req.raw.method === "HEAD") return new Response(null, { status: 200, headers });
    const body = await services.fileStore.get(key);
    if (body === undefined) throw missing();
    return new Response(body, { status: 200, headers });
  });
}
