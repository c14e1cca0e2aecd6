import { ascii, BadImageError, type StructureWalk, u32le } from "./structure-walk.ts";

const FIRST_CHUNKS = new Set(["VP8 ", "VP8L", "VP8X"]);

/**
 * A WebP: the RIFF header whose size is exactly the bytes that follow (no more, no fewer), made
 * of whole chunks, the first one VP8, VP8L or VP8X, with image data (a VP8 key frame start code,
 * a VP8L signature, or animation frames).
 */
export function* webpStructure(): StructureWalk {
  const header = yield { read: 12 };
  if (ascii(header, 0, 4) !== "RIFF" || ascii(header, 8, 12) !== "WEBP")
    throw new BadImageError("not a WebP");
  let remaining = u32le(header, 4) - 4;
  let image = false;
  for (let index = 0; remaining !== 0; index++) {
    if (remaining < 8) throw new BadImageError("WebP RIFF size does not match its chunks");
    const chunk = yield { read: 8 };
    const fourcc = ascii(chunk, 0, 4);
    const size = u32le(chunk, 4);
    const padded = size + (size & 1);
    if (padded > remaining - 8) throw new BadImageError("WebP chunk runs past the RIFF size");
    if (index === 0 && !FIRST_CHUNKS.has(fourcc)) throw new BadImageError("malformed WebP");
    let seen = 0;
    if (fourcc === "VP8 ") {
      if (size < 10) throw new BadImageError("malformed WebP VP8 chunk");
      const frame = yield { read: 10 };
      if (frame[3] !== 0x9d || frame[4] !== 0x01 || frame[5] !== 0x2a)
        throw new BadImageError("malformed WebP VP8 chunk");
      seen = 10;
      image = true;
    } else if (fourcc === "VP8L") {
      if (size < 5 || (yield { read: 1 })[0] !== 0x2f)
        throw new BadImageError("malformed WebP VP8L chunk");
      seen = 1;
      image = true;
    } else if (fourcc === "ANMF") {
      image = true;
    }
    yield { skip: padded - seen };
    remaining -= 8 + padded;
  }
  if (!image) throw new BadImageError("WebP has no image data");
}
