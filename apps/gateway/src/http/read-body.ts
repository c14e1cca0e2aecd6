/** Why a body could not be read; the endpoint renders each as its own error. */
export type BodyReadFailure = { kind: "too-large"; limit: number } | { kind: "aborted" };

export type BodyReadResult = { ok: true; text: string } | ({ ok: false } & BodyReadFailure);

/**
 * Reads a request body up to `limit` bytes. The cap is enforced while the stream is read, so an
 * oversized upload is refused after at most `limit` bytes instead of being buffered whole; a
 * declared Content-Length above the cap is refused before reading anything.
 */
export async function readBodyCapped(request: Request, limit: number): Promise<BodyReadResult> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > limit) return { ok: false, kind: "too-large", limit };
  if (request.body === null) return { ok: true, text: "" };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        return { ok: false, kind: "too-large", limit };
      }
      chunks.push(value);
    }
  } catch {
    return { ok: false, kind: "aborted" };
  }
  return { ok: true, text: Buffer.concat(chunks, size).toString("utf8") };
}
