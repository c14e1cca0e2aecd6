import { crc32, deflateSync } from "node:zlib";

// Small, structurally valid images of the four upload types, built byte by byte (no binary
// fixtures), and ways to pad them to an exact size inside a valid structure.

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};

export function pngChunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.from(type, "latin1");
  return Buffer.concat([u32(data.byteLength), head, data, u32(crc32(data, crc32(head)))]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const IHDR = pngChunk("IHDR", Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0])); // 1x1 RGBA
const IDAT = pngChunk("IDAT", deflateSync(Buffer.from([0, 255, 0, 0, 255]))); // one red pixel
const IEND = pngChunk("IEND", Buffer.alloc(0));

/** A 1x1 PNG; with `totalBytes`, padded to exactly that size by a tEXt chunk after IHDR. */
export function png(totalBytes?: number): Buffer {
  const base = PNG_SIGNATURE.length + IHDR.length + IDAT.length + IEND.length;
  if (totalBytes === undefined) return Buffer.concat([PNG_SIGNATURE, IHDR, IDAT, IEND]);
  const text = Buffer.alloc(totalBytes - base - 12, 0x61);
  Buffer.from("Comment\0", "latin1").copy(text);
  return Buffer.concat([PNG_SIGNATURE, IHDR, pngChunk("tEXt", text), IDAT, IEND]);
}

/** A 1x1 baseline JPEG (SOI, APP0, DQT, SOF0, DHT x2, SOS, entropy data with a stuffed 0xFF, EOI). */
export function jpeg(): Buffer {
  const segment = (marker: number, data: number[]) =>
    Buffer.from([0xff, marker, (data.length + 2) >> 8, (data.length + 2) & 0xff, ...data]);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    segment(0xdb, [0, ...new Array(64).fill(1)]),
    segment(0xc0, [8, 0, 1, 0, 1, 1, 1, 0x11, 0]),
    segment(0xc4, [0x00, 1, ...new Array(15).fill(0), 0]),
    segment(0xc4, [0x10, 1, ...new Array(15).fill(0), 0]),
    segment(0xda, [1, 1, 0, 0, 63, 0]),
    Buffer.from([0x00, 0xff, 0x00, 0x12, 0x34, 0xff, 0xd0, 0x56]),
    Buffer.from([0xff, 0xd9]),
  ]);
}

/** A 1x1 GIF89a with a two-colour table; with `totalBytes`, padded by a comment extension. */
export function gif(totalBytes?: number): Buffer {
  const head = Buffer.from([
    ...Buffer.from("GIF89a", "latin1"),
    1,
    0,
    1,
    0,
    0x80,
    0,
    0,
    0,
    0,
    0,
    255,
    255,
    255,
  ]);
  const image = Buffer.from([0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0]);
  const trailer = Buffer.from([0x3b]);
  if (totalBytes === undefined) return Buffer.concat([head, image, trailer]);
  // Comment extension: 0x21 0xFE, sub-blocks of up to 255 bytes, a zero terminator.
  let left = totalBytes - head.length - image.length - trailer.length - 3;
  const blocks: Buffer[] = [Buffer.from([0x21, 0xfe])];
  while (left > 0) {
    const size = Math.min(255, left - 1);
    blocks.push(Buffer.from([size]), Buffer.alloc(size, 0x61));
    left -= size + 1;
  }
  blocks.push(Buffer.from([0]));
  return Buffer.concat([head, ...blocks, image, trailer]);
}

/** A lossless WebP: RIFF, WEBP, one VP8L chunk (signature byte, 1x1 header, a little data). */
export function webp(): Buffer {
  const vp8l = Buffer.from([0x2f, 0x00, 0x00, 0x00, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88]);
  const chunk = Buffer.concat([Buffer.from("VP8L", "latin1"), le32(vp8l.length), vp8l]);
  return Buffer.concat([
    Buffer.from("RIFF", "latin1"),
    le32(4 + chunk.length),
    Buffer.from("WEBP", "latin1"),
    chunk,
  ]);
}

function le32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}
