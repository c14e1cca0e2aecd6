import { SPEECH_SAMPLE_RATE, wav } from "./wav.ts";

// Speech output per `response_format`: silence of about the right duration, in files a decoder
// accepts. wav and pcm are plain samples; mp3 and AAC are headed frames whose payload decodes to
// silence; opus is a real Ogg Opus stream (OpusHead, OpusTags, silent 20 ms packets, page CRCs);
// flac is a real FLAC stream (STREAMINFO, then CONSTANT-subframe frames with their CRCs).

type AudioFormat = { contentType: string; encode(durationMs: number, text: string): Buffer };

const samplesFor = (rate: number, durationMs: number) =>
  Math.max(1, Math.round((rate * durationMs) / 1000));

function silence(durationMs: number): Buffer {
  return Buffer.alloc(samplesFor(SPEECH_SAMPLE_RATE, durationMs) * 2);
}

function repeatFrames(frame: Buffer, frameMs: number, durationMs: number): Buffer {
  const count = Math.max(1, Math.ceil(durationMs / frameMs));
  return Buffer.concat(Array.from({ length: count }, () => frame));
}

/** MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, mono frames (all-zero side info: silence) after an empty ID3v2 tag. */
function mp3(durationMs: number): Buffer {
  const id3 = Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]);
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0xc4]);
  return Buffer.concat([id3, repeatFrames(frame, (1152 / 44_100) * 1000, durationMs)]);
}

// ---- Ogg Opus (RFC 7845) ----

/** The CRC of Ogg pages: polynomial 0x04c11db7, no reflection, initial value 0. */
const OGG_CRC_TABLE = Uint32Array.from({ length: 256 }, (_, i) => {
  let r = i << 24;
  for (let bit = 0; bit < 8; bit++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
  return r >>> 0;
});

function oggCrc(bytes: Buffer): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ OGG_CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]!) >>> 0;
  return crc;
}

const OGG_SERIAL = 0x5157_4d31;

/** One Ogg page of whole packets (each under 255 bytes, so one lacing value per packet). */
function oggPage(packets: Buffer[], sequence: number, granule: bigint, flags: number): Buffer {
  const header = Buffer.alloc(27);
  header.write("OggS", 0, "latin1");
  header.writeUInt8(flags, 5);
  header.writeBigInt64LE(granule, 6);
  header.writeUInt32LE(OGG_SERIAL, 14);
  header.writeUInt32LE(sequence, 18);
  header.writeUInt8(packets.length, 26);
  const lacing = Buffer.from(packets.map((p) => p.length));
  const page = Buffer.concat([header, lacing, ...packets]);
  page.writeUInt32LE(oggCrc(page), 22);
  return page;
}

const OPUS_PRE_SKIP = 312;
const OPUS_FRAME_SAMPLES = 960; // 20 ms at 48 kHz, Opus's granule clock
/** TOC 0xf8 (CELT fullband, 20 ms, mono, one frame) and a frame that decodes to silence. */
const OPUS_SILENT_PACKET = Buffer.from([0xf8, 0xff, 0xfe]);
const OPUS_PACKETS_PER_PAGE = 50;

function opus(durationMs: number): Buffer {
  const head = Buffer.alloc(19);
  head.write("OpusHead", 0, "latin1");
  head.writeUInt8(1, 8); // version
  head.writeUInt8(1, 9); // channels
  head.writeUInt16LE(OPUS_PRE_SKIP, 10);
  head.writeUInt32LE(SPEECH_SAMPLE_RATE, 12); // input rate, informational
  head.writeInt16LE(0, 16); // output gain
  head.writeUInt8(0, 18); // mapping family 0: mono or stereo
  const vendor = Buffer.from("provider-sim", "utf8");
  const tags = Buffer.alloc(8 + 4 + vendor.length + 4);
  tags.write("OpusTags", 0, "latin1");
  tags.writeUInt32LE(vendor.length, 8);
  vendor.copy(tags, 12);
  tags.writeUInt32LE(0, 12 + vendor.length); // no user comments

  const samples = samplesFor(48_000, durationMs);
  const packets = Math.ceil((samples + OPUS_PRE_SKIP) / OPUS_FRAME_SAMPLES);
  const pages = [oggPage([head], 0, 0n, 0x02), oggPage([tags], 1, 0n, 0)];
  for (let sent = 0; sent < packets; ) {
    const count = Math.min(OPUS_PACKETS_PER_PAGE, packets - sent);
    sent += count;
    const last = sent === packets;
    // The last page's granule ends the stream exactly at the duration (end trimming).
    const granule = last ? OPUS_PRE_SKIP + samples : sent * OPUS_FRAME_SAMPLES;
    const batch = Array.from({ length: count }, () => OPUS_SILENT_PACKET);
    pages.push(oggPage(batch, pages.length, BigInt(granule), last ? 0x04 : 0));
  }
  return Buffer.concat(pages);
}

// ---- AAC in ADTS ----

/** Big-endian bit packing, for the AAC raw data block. */
class BitWriter {
  readonly #bytes: number[] = [];
  #bits = 0;

  write(value: number, width: number): this {
    for (let bit = width - 1; bit >= 0; bit--) {
      if (this.#bits % 8 === 0) this.#bytes.push(0);
      const at = this.#bytes.length - 1;
      this.#bytes[at] = this.#bytes[at]! | (((value >> bit) & 1) << (7 - (this.#bits % 8)));
      this.#bits++;
    }
    return this;
  }

  bytes(): Buffer {
    return Buffer.from(this.#bytes); // the last byte is zero-padded
  }
}

/** Fill bytes per frame: about 38 kbit/s, a real encoder's frame size at 24 kHz mono. */
const AAC_FILL_BYTES = 192;

/**
 * A raw AAC-LC mono block that decodes to silence: an SCE with max_sfb 0 (no spectral data), a
 * FIL element of EXT_FILL bytes (so frames have a realistic size), END.
 */
function aacSilentBlock(): Buffer {
  const bits = new BitWriter()
    .write(0, 3) // ID_SCE
    .write(0, 4) // element instance tag
    .write(160, 8) // global gain
    .write(0, 1) // ics_reserved_bit
    .write(0, 2) // ONLY_LONG_SEQUENCE
    .write(1, 1) // window shape
    .write(0, 6) // max_sfb: no scale factor bands, so no sections and no spectral data
    .write(0, 1) // predictor_data_present
    .write(0, 3) // no pulse, TNS or gain control data
    .write(6, 3) // ID_FIL
    .write(15, 4) // count 15: the escape count follows
    .write(AAC_FILL_BYTES - 14, 8) // count = 15 + esc_count - 1
    .write(0, 4) // extension type EXT_FILL
    .write(0, 4); // fill nibble
  for (let i = 1; i < AAC_FILL_BYTES; i++) bits.write(0b10100101, 8); // fill bytes
  return bits.write(7, 3).bytes(); // ID_END
}

const AAC_SILENT_BLOCK = aacSilentBlock();
const AAC_SAMPLING_INDEX_24K = 6;

/** ADTS frames: MPEG-4 AAC-LC, 24 kHz, mono, 1024 samples per frame, no CRC. */
function aac(durationMs: number): Buffer {
  const length = 7 + AAC_SILENT_BLOCK.length;
  const fullness = 0x7ff; // variable bit rate
  const header = Buffer.from([
    0xff,
    0xf1, // sync, MPEG-4, layer 0, no CRC
    (1 << 6) | (AAC_SAMPLING_INDEX_24K << 2) | 0, // profile LC (object type 2 - 1), rate, channels high bit
    (1 << 6) | (length >> 11), // channel configuration 1 (mono), frame length high bits
    (length >> 3) & 0xff,
    ((length & 7) << 5) | (fullness >> 6),
    ((fullness & 0x3f) << 2) | 0, // one raw data block per frame
  ]);
  const frame = Buffer.concat([header, AAC_SILENT_BLOCK]);
  return repeatFrames(frame, (1024 / SPEECH_SAMPLE_RATE) * 1000, durationMs);
}

// ---- FLAC ----

const crc8Table = Uint8Array.from({ length: 256 }, (_, i) => {
  let r = i;
  for (let bit = 0; bit < 8; bit++) r = r & 0x80 ? ((r << 1) ^ 0x07) & 0xff : (r << 1) & 0xff;
  return r;
});
const crc16Table = Uint16Array.from({ length: 256 }, (_, i) => {
  let r = i << 8;
  for (let bit = 0; bit < 8; bit++)
    r = r & 0x8000 ? ((r << 1) ^ 0x8005) & 0xffff : (r << 1) & 0xffff;
  return r;
});

function crc8(bytes: Buffer): number {
  let crc = 0;
  for (const byte of bytes) crc = crc8Table[crc ^ byte]!;
  return crc;
}

function crc16(bytes: Buffer): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ crc16Table[(crc >> 8) ^ byte]!) & 0xffff;
  return crc;
}

/** FLAC's "UTF-8" coding of a frame number (up to 31 bits). */
function utf8Number(n: number): number[] {
  if (n < 0x80) return [n];
  const bytes: number[] = [];
  let rest = n;
  let lead = 0x80;
  let room = 0x3f;
  do {
    bytes.unshift(0x80 | (rest & 0x3f));
    rest = Math.floor(rest / 64);
    lead = (lead >> 1) | 0x80;
    room >>= 1;
  } while (rest > room);
  return [lead | rest, ...bytes];
}

const FLAC_BLOCK = 4096;

/** One frame of `samples` silent mono 16-bit samples: a CONSTANT subframe of value 0. */
function flacFrame(index: number, samples: number): Buffer {
  const full = samples === FLAC_BLOCK;
  // Block size code 1100 = 4096; 0111 = a 16-bit (size - 1) after the frame number. Rate 0111 = 24 kHz.
  const header = Buffer.from([
    0xff,
    0xf8, // sync, fixed block size
    ((full ? 0b1100 : 0b0111) << 4) | 0b0111,
    (0b0000 << 4) | (0b100 << 1), // mono, 16 bits per sample
    ...utf8Number(index),
    ...(full ? [] : [(samples - 1) >> 8, (samples - 1) & 0xff]),
  ]);
  const withCrc8 = Buffer.concat([header, Buffer.from([crc8(header)])]);
  const subframe = Buffer.from([0x00, 0x00, 0x00]); // CONSTANT, no wasted bits; value 0 (16 bits)
  const body = Buffer.concat([withCrc8, subframe]);
  const footer = Buffer.alloc(2);
  footer.writeUInt16BE(crc16(body));
  return Buffer.concat([body, footer]);
}

function flac(durationMs: number): Buffer {
  const samples = samplesFor(SPEECH_SAMPLE_RATE, durationMs);
  const frames: Buffer[] = [];
  for (let at = 0, index = 0; at < samples; at += FLAC_BLOCK, index++) {
    frames.push(flacFrame(index, Math.min(FLAC_BLOCK, samples - at)));
  }
  const info = Buffer.alloc(4 + 34);
  info.set([0x80, 0, 0, 34]); // last metadata block, STREAMINFO, 34 bytes
  info.writeUInt16BE(Math.min(FLAC_BLOCK, samples), 4); // min block size
  info.writeUInt16BE(FLAC_BLOCK, 6); // max block size
  // Frame sizes (24 bits each) and the MD5 are left 0: "unknown", which decoders accept.
  const packed = (BigInt(SPEECH_SAMPLE_RATE) << 44n) | (0n << 41n) | (15n << 36n) | BigInt(samples);
  info.writeBigUInt64BE(packed, 14);
  return Buffer.concat([Buffer.from("fLaC", "latin1"), info, ...frames]);
}

export const AUDIO_FORMATS: Record<string, AudioFormat> = {
  mp3: { contentType: "audio/mpeg", encode: mp3 },
  opus: { contentType: "audio/opus", encode: opus },
  aac: { contentType: "audio/aac", encode: aac },
  flac: { contentType: "audio/flac", encode: flac },
  wav: {
    contentType: "audio/wav",
    encode: (ms, text) => wav(silence(ms), SPEECH_SAMPLE_RATE, text),
  },
  pcm: { contentType: "audio/pcm", encode: silence },
};

/** Roughly a speaking pace: 60 ms per character, between 0.2 s and 10 s. */
export function speechDurationMs(text: string, speed: number): number {
  return Math.round(Math.min(10_000, Math.max(200, text.length * 60)) / speed);
}
