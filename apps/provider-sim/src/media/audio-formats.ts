import { SPEECH_SAMPLE_RATE, wav } from "./wav.ts";

// Speech output per `response_format`. wav and pcm are real audio (silence); the compressed
// formats are plausible containers (right magic bytes and framing, silent payload) of about the
// right size for the duration: enough for clients that sniff or store the bytes.

type AudioFormat = { contentType: string; encode(durationMs: number, text: string): Buffer };

function silence(durationMs: number): Buffer {
  return Buffer.alloc(Math.round((SPEECH_SAMPLE_RATE * durationMs) / 1000) * 2);
}

function repeatFrames(frame: Buffer, frameMs: number, durationMs: number): Buffer {
  const count = Math.max(1, Math.ceil(durationMs / frameMs));
  return Buffer.concat(Array.from({ length: count }, () => frame));
}

/** MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, mono frames after an empty ID3v2 tag. */
function mp3(durationMs: number): Buffer {
  const id3 = Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]);
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0xc4]);
  return Buffer.concat([id3, repeatFrames(frame, 26.122, durationMs)]);
}

/** An Ogg page holding an OpusHead packet, then silent payload. */
function opus(durationMs: number): Buffer {
  const head = Buffer.alloc(19);
  head.write("OpusHead", 0, "latin1");
  head.set([1, 1], 8); // version, channels
  head.writeUInt16LE(312, 10); // pre-skip
  head.writeUInt32LE(SPEECH_SAMPLE_RATE, 12);
  const page = Buffer.alloc(27);
  page.write("OggS", 0, "latin1");
  page.writeUInt8(2, 5); // beginning of stream
  page.writeUInt8(1, 26); // one segment
  return Buffer.concat([
    page,
    Buffer.from([head.length]),
    head,
    Buffer.alloc(Math.ceil(durationMs * 3)),
  ]);
}

/** ADTS frames: AAC-LC, 24 kHz, mono, 1024 samples per frame. */
function aac(durationMs: number): Buffer {
  const length = 128;
  const frame = Buffer.alloc(length);
  frame.set([
    0xff,
    0xf1,
    0x58,
    0x40 | (length >> 11),
    (length >> 3) & 0xff,
    ((length & 7) << 5) | 0x1f,
    0xfc,
  ]);
  return repeatFrames(frame, (1024 / SPEECH_SAMPLE_RATE) * 1000, durationMs);
}

/** The fLaC marker and a STREAMINFO block describing the duration. */
function flac(durationMs: number): Buffer {
  const info = Buffer.alloc(4 + 34);
  info.set([0x80, 0, 0, 34]); // last metadata block, STREAMINFO, 34 bytes
  info.writeUInt16BE(4096, 4);
  info.writeUInt16BE(4096, 6);
  const samples = BigInt(Math.round((SPEECH_SAMPLE_RATE * durationMs) / 1000));
  const packed = (BigInt(SPEECH_SAMPLE_RATE) << 44n) | (0n << 41n) | (15n << 36n) | samples;
  info.writeBigUInt64BE(packed, 14);
  return Buffer.concat([Buffer.from("fLaC", "latin1"), info]);
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
