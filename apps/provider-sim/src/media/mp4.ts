import { sha256 } from "../core/hash.ts";
import { greyH264 } from "./h264.ts";

// A real MP4 for generated videos: ftyp, a `free` box holding a digest of the seed (so each video
// has its own bytes), moov with one H.264 video track (avc1/avcC, sample tables), then mdat. Any
// MP4 reader sees the requested duration and size, and a decoder plays grey frames at 24 fps.

export const FPS = 24;
const MEDIA_TIMESCALE = 12_288; // what common muxers use for 24 fps: 512 ticks per frame
const FRAME_TICKS = MEDIA_TIMESCALE / FPS;
const MOVIE_TIMESCALE = 1000;

export type VideoSpec = {
  seconds: number;
  width: number;
  height: number;
  seed: string;
  /** A silent AAC sound track; default true. */
  audio?: boolean;
};

function box(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, "latin1");
  return Buffer.concat([head, body]);
}

function fullBox(type: string, version: number, flags: number, ...payload: Buffer[]): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(((version & 0xff) << 24) | (flags & 0xffffff), 0);
  return box(type, head, ...payload);
}

function u32(...values: number[]): Buffer {
  const b = Buffer.alloc(4 * values.length);
  for (const [i, v] of values.entries()) b.writeUInt32BE(v, 4 * i);
  return b;
}

function u16(...values: number[]): Buffer {
  const b = Buffer.alloc(2 * values.length);
  for (const [i, v] of values.entries()) b.writeUInt16BE(v, 2 * i);
  return b;
}

/** The identity matrix of mvhd and tkhd. */
const MATRIX = u32(0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000);

function mvhd(durationMs: number, nextTrackId: number): Buffer {
  return fullBox(
    "mvhd",
    0,
    0,
    u32(0, 0, MOVIE_TIMESCALE, durationMs, 0x10000),
    u16(0x100, 0),
    Buffer.alloc(8),
    MATRIX,
    Buffer.alloc(24),
    u32(nextTrackId),
  );
}

function avc1(width: number, height: number, sps: Buffer, pps: Buffer, h: ProfileInfo): Buffer {
  const avcC = box(
    "avcC",
    Buffer.from([1, h.profile, h.compatibility, h.level, 0xff, 0xe1]), // 4-byte lengths, 1 SPS
    u16(sps.length),
    sps,
    Buffer.from([1]),
    u16(pps.length),
    pps,
  );
  return box(
    "avc1",
    Buffer.alloc(6),
    u16(1), // data_reference_index
    Buffer.alloc(16),
    u16(width, height),
    u32(0x480000, 0x480000, 0), // 72 dpi, reserved
    u16(1), // frame_count
    Buffer.alloc(32), // compressorname
    u16(0x18, 0xffff), // depth, pre_defined -1
    avcC,
  );
}

type ProfileInfo = { profile: number; compatibility: number; level: number };

// Audio: silent AAC-LC, mono 48 kHz, one raw frame per 1024 samples (the frame decoders use to
// fill gaps). Veo 3 videos carry a sound track unless `generateAudio` is false.
const AUDIO_RATE = 48_000;
const AAC_FRAME_SAMPLES = 1024;
const SILENT_AAC_FRAME = Buffer.from([0x00, 0xc8, 0x00, 0x80, 0x23, 0x80]);
const AUDIO_SPECIFIC_CONFIG = Buffer.from([0x11, 0x88]); // AAC LC, 48 kHz, mono

function descriptor(tag: number, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  return Buffer.concat([Buffer.from([tag, body.length]), body]);
}

function mp4a(): Buffer {
  const esds = fullBox(
    "esds",
    0,
    0,
    descriptor(
      0x03, // ES_Descriptor
      u16(2),
      Buffer.from([0]),
      descriptor(
        0x04, // DecoderConfigDescriptor: MPEG-4 audio, audio stream
        Buffer.from([0x40, 0x15, 0, 0, 0]),
        u32(0, 0),
        descriptor(0x05, AUDIO_SPECIFIC_CONFIG),
      ),
      descriptor(0x06, Buffer.from([0x02])), // SLConfigDescriptor
    ),
  );
  return box(
    "mp4a",
    Buffer.alloc(6),
    u16(1), // data_reference_index
    Buffer.alloc(8),
    u16(1, 16, 0, 0), // channelcount, samplesize, pre_defined, reserved
    u32(AUDIO_RATE * 0x10000),
    esds,
  );
}

type Track = {
  id: number;
  handler: "vide" | "soun";
  timescale: number;
  sampleTicks: number;
  samples: Buffer[];
  sampleEntry: Buffer;
  width: number;
  height: number;
  /** Video tracks list their one sync sample; audio samples are all sync samples. */
  syncFirstOnly: boolean;
  /** Media duration in timescale units, when the last sample is only partly played. */
  duration?: number;
};

function trak(track: Track, durationMs: number, chunkOffset: number): Buffer {
  const count = track.samples.length;
  const stbl = box(
    "stbl",
    fullBox("stsd", 0, 0, u32(1), track.sampleEntry),
    fullBox("stts", 0, 0, u32(1, count, track.sampleTicks)),
    ...(track.syncFirstOnly ? [fullBox("stss", 0, 0, u32(1, 1))] : []),
    fullBox("stsc", 0, 0, u32(1, 1, count, 1)), // one chunk holds every sample
    fullBox("stsz", 0, 0, u32(0, count), u32(...track.samples.map((s) => s.length))),
    fullBox("stco", 0, 0, u32(1, chunkOffset)),
  );
  const mediaHeader =
    track.handler === "vide"
      ? fullBox("vmhd", 0, 1, u16(0, 0, 0, 0))
      : fullBox("smhd", 0, 0, u16(0, 0));
  const minf = box(
    "minf",
    mediaHeader,
    box("dinf", fullBox("dref", 0, 0, u32(1), fullBox("url ", 0, 1))),
    stbl,
  );
  const name = track.handler === "vide" ? "VideoHandler\0" : "SoundHandler\0";
  const mdia = box(
    "mdia",
    fullBox(
      "mdhd",
      0,
      0,
      u32(0, 0, track.timescale, track.duration ?? count * track.sampleTicks),
      u16(0x55c4, 0),
    ), // "und"
    fullBox(
      "hdlr",
      0,
      0,
      u32(0),
      Buffer.from(track.handler, "latin1"),
      Buffer.alloc(12),
      Buffer.from(name, "latin1"),
    ),
    minf,
  );
  return box("trak", tkhd(track, durationMs), mdia);
}

function tkhd(track: Track, durationMs: number): Buffer {
  return fullBox(
    "tkhd",
    0,
    3, // enabled, in movie
    u32(0, 0, track.id, 0, durationMs),
    Buffer.alloc(8),
    u16(0, track.handler === "soun" ? 1 : 0, track.handler === "soun" ? 0x100 : 0, 0), // layer, alternate_group, volume, reserved
    MATRIX,
    u32(track.width * 0x10000, track.height * 0x10000),
  );
}

function moov(tracks: Track[], durationMs: number, offsets: number[]): Buffer {
  return box(
    "moov",
    mvhd(durationMs, tracks.length + 1),
    ...tracks.map((t, i) => trak(t, durationMs, offsets[i]!)),
  );
}

function videoTrack(spec: VideoSpec): Track {
  const frames = Math.max(1, Math.round(spec.seconds * FPS));
  const h = greyH264(spec.width, spec.height, frames);
  return {
    id: 1,
    handler: "vide",
    timescale: MEDIA_TIMESCALE,
    sampleTicks: FRAME_TICKS,
    samples: h.frames.map((frame) => Buffer.concat([u32(frame.length), frame])),
    sampleEntry: avc1(spec.width, spec.height, h.sps, h.pps, h),
    width: spec.width,
    height: spec.height,
    syncFirstOnly: true,
  };
}

function audioTrack(seconds: number): Track {
  const frames = Math.ceil((seconds * AUDIO_RATE) / AAC_FRAME_SAMPLES);
  return {
    id: 2,
    handler: "soun",
    timescale: AUDIO_RATE,
    sampleTicks: AAC_FRAME_SAMPLES,
    samples: Array.from({ length: frames }, () => SILENT_AAC_FRAME),
    sampleEntry: mp4a(),
    width: 0,
    height: 0,
    syncFirstOnly: false,
    duration: Math.round(seconds * AUDIO_RATE),
  };
}

/**
 * An MP4 of `seconds` (whole frames at 24 fps) at width x height, unique per seed; with a silent
 * sound track unless `audio` is false.
 */
export function mp4Video(spec: VideoSpec): Buffer {
  const tracks = [videoTrack(spec), ...(spec.audio === false ? [] : [audioTrack(spec.seconds)])];
  const durationMs = Math.round(spec.seconds * MOVIE_TIMESCALE);
  const ftyp = box(
    "ftyp",
    Buffer.from("isom", "latin1"),
    u32(0x200),
    Buffer.from("isomiso2avc1mp41", "latin1"),
  );
  const free = box("free", sha256(spec.seed));
  // moov's size does not depend on the chunk offsets it holds: measure it once, then place the
  // chunks one after the other in mdat.
  const moovSize = moov(
    tracks,
    durationMs,
    tracks.map(() => 0),
  ).length;
  let offset = ftyp.length + free.length + moovSize + 8;
  const offsets = tracks.map((t) => {
    const at = offset;
    offset += t.samples.reduce((n, s) => n + s.length, 0);
    return at;
  });
  const mdat = box("mdat", ...tracks.flatMap((t) => t.samples));
  return Buffer.concat([ftyp, free, moov(tracks, durationMs, offsets), mdat]);
}
