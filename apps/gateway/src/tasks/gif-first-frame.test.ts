import { inflateSync } from "node:zlib";
import { GifWriter } from "omggif";
import { describe, expect, it } from "vitest";
import { gifFirstFrameAsPng, MAX_GIF_PIXELS } from "./gif-first-frame.ts";

/** A 2x2 GIF of two frames: frame 0 red, green, blue, white; frame 1 all black. */
function twoFrameGif(): Buffer {
  const out = new Uint8Array(1024);
  const palette = [0xff0000, 0x00ff00, 0x0000ff, 0xffffff];
  const writer = new GifWriter(out, 2, 2, { palette, loop: 0 });
  writer.addFrame(0, 0, 2, 2, [0, 1, 2, 3], { delay: 10 });
  writer.addFrame(0, 0, 2, 2, [3, 3, 3, 3], { delay: 10, palette: [0, 0] });
  return Buffer.from(out.subarray(0, writer.end()));
}

/** Width, height and RGBA pixels of a PNG as `rgbaToPng` writes it (one IDAT, filter 0 rows). */
function readPng(png: Buffer): { width: number; height: number; rgba: number[] } {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const chunks = new Map<string, Buffer>();
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    chunks.set(png.toString("latin1", at + 4, at + 8), png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const header = chunks.get("IHDR")!;
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  expect([...header.subarray(8)]).toEqual([8, 6, 0, 0, 0]);
  expect(chunks.has("IEND")).toBe(true);
  const rows = inflateSync(chunks.get("IDAT")!);
  const rgba: number[] = [];
  for (let y = 0; y < height; y++) {
    const row = rows.subarray(y * (width * 4 + 1), (y + 1) * (width * 4 + 1));
    expect(row[0]).toBe(0);
    rgba.push(...row.subarray(1));
  }
  return { width, height, rgba };
}

describe("a GIF's first frame as a PNG", () => {
  it("keeps the first frame's pixels, not a later frame's", () => {
    const converted = gifFirstFrameAsPng(twoFrameGif());
    if (!converted.ok) throw new Error(converted.message);
    expect(readPng(converted.png)).toEqual({
      width: 2,
      height: 2,
      rgba: [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255],
    });
  });

  it("refuses a header that claims more pixels than the bound, before allocating them", () => {
    const gif = twoFrameGif();
    // Logical screen and the first frame's descriptor both claim 65535 x 65535.
    gif.writeUInt16LE(0xffff, 6);
    gif.writeUInt16LE(0xffff, 8);
    const converted = gifFirstFrameAsPng(gif);
    expect(converted).toEqual({
      ok: false,
      message: `the GIF is 65535x65535 pixels (at most ${MAX_GIF_PIXELS} pixels)`,
    });
  });

  it("says why bytes that are no GIF cannot be read", () => {
    const converted = gifFirstFrameAsPng(Buffer.from("GIF89a-not-really"));
    expect(converted.ok).toBe(false);
    expect(!converted.ok && converted.message).toMatch(/^the GIF could not be (read|decoded)/);
  });
});
