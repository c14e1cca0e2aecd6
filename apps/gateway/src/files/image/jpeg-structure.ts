import { BadImageError, type StructureWalk, u16be, type Want } from "./structure-walk.ts";

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
/** Markers without a length field: RSTn and TEM. */
const standalone = (m: number) => (m >= 0xd0 && m <= 0xd7) || m === 0x01;
/** Start-of-frame markers (SOF0..SOF15 less DHT, JPG and DAC). */
const startsFrame = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

/** The marker after 0xFF (fill bytes 0xFF skipped). */
function* markerCode(): Generator<Want, number, Uint8Array> {
  let code: number | undefined;
  do code = (yield { read: 1 })[0];
  while (code === 0xff);
  return code ?? 0;
}

function* nextMarker(): Generator<Want, number, Uint8Array> {
  if ((yield { read: 1 })[0] !== 0xff) throw new BadImageError("malformed JPEG segment");
  const code = yield* markerCode();
  if (code === 0) throw new BadImageError("malformed JPEG marker");
  return code;
}

/** Entropy-coded data runs to the first marker that is neither a stuffed 0xFF00 nor an RSTn. */
function* entropyData(): Generator<Want, number, Uint8Array> {
  for (;;) {
    yield {
      scan: (bytes) => {
        const at = bytes.indexOf(0xff);
        return at === -1 ? bytes.byteLength : at;
      },
    };
    yield { skip: 1 };
    const code = yield* markerCode();
    if (code !== 0x00 && !(code >= 0xd0 && code <= 0xd7)) return code;
  }
}

const zeroPadding = (bytes: Uint8Array) => {
  if (bytes.some((byte) => byte !== 0)) throw new BadImageError("data after the end of the image");
};

/**
 * A JPEG: SOI, length-framed segments, a frame header before the first scan, entropy-coded
 * scans, and EOI; after EOI only zero padding (which some encoders write) is accepted.
 */
export function* jpegStructure(): StructureWalk {
  const start = yield { read: 2 };
  if (start[0] !== 0xff || start[1] !== SOI) throw new BadImageError("not a JPEG");
  let frame = false;
  let scans = 0;
  let marker = yield* nextMarker();
  for (;;) {
    if (marker === EOI) {
      if (scans === 0) throw new BadImageError("JPEG has no image data");
      yield { tail: zeroPadding };
      return;
    }
    if (marker === SOI) throw new BadImageError("malformed JPEG");
    if (standalone(marker)) {
      marker = yield* nextMarker();
      continue;
    }
    const length = u16be(yield { read: 2 }, 0);
    if (length < 2) throw new BadImageError("malformed JPEG segment");
    if (startsFrame(marker)) frame = true;
    yield { skip: length - 2 };
    if (marker === SOS) {
      if (!frame) throw new BadImageError("JPEG scan before its frame header");
      scans++;
      marker = yield* entropyData();
    } else {
      marker = yield* nextMarker();
    }
  }
}
