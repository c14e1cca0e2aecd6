/** Why a body could not be read; the endpoint renders each as its own error. */
export type BodyReadFailure = { kind: "too-large"; limit: number } | { kind: "aborted" };

export type BodyReadResult = { ok: true; text: string } | ({ ok: false } & BodyReadFailure);

/**
 * Enforces `limit` while reading, so an oversized upload costs at most `limit` bytes, not a whole
 * buffer; a declared Content-Length over the cap is refused before reading.
 */
export async function readBodyCapped(request: Request, limit: number): Promise<BodyReadResult> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > limit) return { ok: false, kind: "too-large", limit };
  if (Number.isFinite(declared)) {
    // Over HTTP the parser holds a body to its declared length, so it is read whole in one go
    // (the server adapter's fast path, no web stream); the check after is for a Request that
    // did not come over HTTP and may carry more than it declares.
    let bytes: ArrayBuffer;
    try {
      bytes = await request.arrayBuffer();
    } catch {
      return { ok: false, kind: "aborted" };
    }
    if (bytes.byteLength > limit) return { ok: false, kind: "too-large", limit };
    return { ok: true, text: Buffer.from(bytes).toString("utf8") };
  }
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
