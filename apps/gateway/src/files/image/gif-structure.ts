import { ascii, BadImageError, type StructureWalk, type Want } from "./structure-walk.ts";

const colorTableBytes = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);

/** Data sub-blocks: a size byte, that many bytes, until a zero size. */
function* subBlocks(): Generator<Want, void, Uint8Array> {
  for (;;) {
    const size = (yield { read: 1 })[0] ?? 0;
    if (size === 0) return;
    yield { skip: size };
  }
}

/**
 * A GIF: header, logical screen (and its color table), extension and image blocks with their
 * sub-blocks, at least one image, then the trailer with nothing after it.
 */
export function* gifStructure(): StructureWalk {
  const header = yield { read: 13 };
  const version = ascii(header, 0, 6);
  if (version !== "GIF87a" && version !== "GIF89a") throw new BadImageError("not a GIF");
  yield { skip: colorTableBytes(header[10] ?? 0) };
  let images = 0;
  for (;;) {
    const introducer = (yield { read: 1 })[0];
    if (introducer === 0x21) {
      yield { read: 1 };
      yield* subBlocks();
    } else if (introducer === 0x2c) {
      const descriptor = yield { read: 9 };
      yield { skip: colorTableBytes(descriptor[8] ?? 0) };
      const codeSize = (yield { read: 1 })[0] ?? 0;
      if (codeSize < 1 || codeSize > 11) throw new BadImageError("malformed GIF image");
      yield* subBlocks();
      images++;
    } else if (introducer === 0x3b) {
      if (images === 0) throw new BadImageError("GIF has no image");
      return;
    } else {
      throw new BadImageError("malformed GIF block");
    }
  }
}
