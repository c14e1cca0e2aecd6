import { crc32 } from "node:zlib";
import { ascii, BadImageError, type StructureWalk, u32be } from "./structure-walk.ts";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const MAX_CHUNK = 0x7fffffff;

/**
 * A PNG: the signature, IHDR first (13 bytes, non-zero size), every chunk's CRC right, at
 * least one IDAT, and nothing after IEND (a PNG with a zip or a page glued on is refused).
 */
export function* pngStructure(): StructureWalk {
  const signature = yield { read: 8 };
  if (!SIGNATURE.every((byte, i) => signature[i] === byte))
    throw new BadImageError("not a PNG signature");
  let sawData = false;
  for (let index = 0; ; index++) {
    const header = yield { read: 8 };
    const length = u32be(header, 0);
    const type = ascii(header, 4, 8);
    if (length > MAX_CHUNK || !/^[A-Za-z]{4}$/.test(type))
      throw new BadImageError("malformed PNG chunk");
    if ((index === 0) !== (type === "IHDR")) throw new BadImageError("PNG must start with IHDR");
    let crc = crc32(header.subarray(4, 8));
    if (type === "IHDR") {
      if (length !== 13) throw new BadImageError("malformed PNG header");
      const data = yield { read: 13 };
      if (u32be(data, 0) === 0 || u32be(data, 4) === 0)
        throw new BadImageError("PNG has no pixels");
      crc = crc32(data, crc);
    } else {
      yield {
        skip: length,
        see: (bytes) => {
          crc = crc32(bytes, crc);
        },
      };
    }
    if (u32be(yield { read: 4 }, 0) !== crc)
      throw new BadImageError(`PNG ${type} chunk checksum mismatch`);
    if (type === "IDAT") sawData = true;
    if (type === "IEND") {
      if (!sawData) throw new BadImageError("PNG has no image data");
      return;
    }
  }
}
