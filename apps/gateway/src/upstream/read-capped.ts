/** A body that can be read chunk by chunk and given up early. */
type CappedBody = AsyncIterable<Buffer | Uint8Array> & { destroy?: () => unknown };

/**
 * A body's bytes, up to `limit`; undefined when it is longer (the rest is not read: the body is
 * destroyed). A body that fails mid-way throws.
 */
export async function readCappedBytes(
  body: CappedBody,
  limit: number,
): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > limit) {
      body.destroy?.();
      return undefined;
    }
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  }
  return Buffer.concat(chunks, size);
}

/** A body as text, up to `limit` bytes; undefined when it is longer or fails mid-way. */
export async function readCappedText(body: CappedBody, limit: number): Promise<string | undefined> {
  try {
    return (await readCappedBytes(body, limit))?.toString("utf8");
  } catch {
    return undefined;
  }
}
