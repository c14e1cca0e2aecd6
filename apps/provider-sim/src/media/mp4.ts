import { sha256 } from "../core/hash.ts";

// A plausible MP4 for generated videos: ftyp and mdat boxes around a payload derived from the id.

function box(type: string, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + payload.length, 0);
  head.write(type, 4, "latin1");
  return Buffer.concat([head, payload]);
}

export function mp4ForSeed(seed: string): Buffer {
  const ftyp = Buffer.concat([
    Buffer.from("isom", "latin1"),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from("isomiso2avc1mp41", "latin1"),
  ]);
  const digest = sha256(seed);
  const payload = Buffer.concat(Array.from({ length: 32 }, () => digest));
  return Buffer.concat([box("ftyp", ftyp), box("free", Buffer.alloc(0)), box("mdat", payload)]);
}
