import { crc32, deflateSync } from "node:zlib";
import { GifReader } from "omggif";

// Uploads take GIFs, but the upstreams that read source images (Veo, Gemini image output) take
// JPEG, PNG or WebP only. A GIF's first frame goes up as a PNG: a source image is one still, and
// an animated GIF's first frame is the one any viewer shows before it plays.

/** 4096 x 4096: the RGBA frame is at most 64 MiB, whatever dimensions the header claims. */
export const MAX_GIF_PIXELS = 4096 * 4096;

export type Converted = { ok: true; png: Buffer } | { ok: false; message: string };

const u32 = (n: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(n >>> 0);
  return bytes;
};

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.from(type, "latin1");
  return Buffer.concat([u32(data.length), head, data, u32(crc32(data, crc32(head)))]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** RGBA pixels as a PNG: 8 bits per channel, colour type 6, each row unfiltered. */
export function rgbaToPng(width: number, height: number, rgba: Uint8Array): Buffer {
  const header = Buffer.concat([u32(width), u32(height), Buffer.from([8, 6, 0, 0, 0])]);
  const stride = width * 4;
  const rows = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    // Each row starts with its filter type, 0 (none).
    rows.set(rgba.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  }
  return Buffer.concat([
    SIGNATURE,
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** The first frame of a GIF as a PNG, or why it cannot be read. */
export function gifFirstFrameAsPng(bytes: Uint8Array): Converted {
  let reader: GifReader;
  try {
    reader = new GifReader(bytes);
  } catch (error) {
    return { ok: false, message: `the GIF could not be read: ${(error as Error).message}` };
  }
  const { width, height } = reader;
  if (reader.numFrames() === 0) return { ok: false, message: "the GIF has no frame" };
  if (width === 0 || height === 0 || width * height > MAX_GIF_PIXELS) {
    return {
      ok: false,
      message: `the GIF is ${width}x${height} pixels (at most ${MAX_GIF_PIXELS} pixels)`,
    };
  }
  const rgba = new Uint8Array(width * height * 4);
  try {
    reader.decodeAndBlitFrameRGBA(0, rgba);
  } catch (error) {
    return { ok: false, message: `the GIF could not be decoded: ${(error as Error).message}` };
  }
  return { ok: true, png: rgbaToPng(width, height, rgba) };
}
