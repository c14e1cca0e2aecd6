import { describe, expect, it } from "vitest";
import { AUDIO_FORMATS, speechDurationMs } from "../media/audio-formats.ts";
import { readWav } from "../media/wav.ts";
import { post, useSim } from "../testing/http.ts";

// Each speech format is checked the way a decoder reads it: container framing, checksums and
// the duration its headers declare. (The gateway's audio tests also parse every format with
// music-metadata.)

const sim = useSim();
const AUTH = { authorization: "Bearer sk-test" };

async function speak(
  body: Record<string, unknown>,
): Promise<{ status: number; type: string; bytes: Buffer }> {
  const response = await post(
    `${sim().url}/v1/audio/speech`,
    { model: "gpt-4o-mini-tts", voice: "alloy", ...body },
    AUTH,
  );
  return {
    status: response.status,
    type: response.headers.get("content-type") ?? "",
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

const INPUT = "The quick brown fox jumps over the lazy dog."; // 44 chars -> 2640 ms at speed 1
const DURATION_MS = speechDurationMs(INPUT, 1);

function oggCrc(page: Buffer): number {
  let crc = 0;
  for (const byte of page) {
    crc ^= byte << 24;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
    crc >>>= 0;
  }
  return crc;
}

type OggPage = { flags: number; granule: bigint; sequence: number; packets: Buffer[] };

function oggPages(bytes: Buffer): OggPage[] {
  const pages: OggPage[] = [];
  for (let at = 0; at < bytes.length; ) {
    expect(bytes.toString("latin1", at, at + 4)).toBe("OggS");
    const count = bytes.readUInt8(at + 26);
    const lacing = [...bytes.subarray(at + 27, at + 27 + count)];
    const size = 27 + count + lacing.reduce((a, b) => a + b, 0);
    const page = Buffer.from(bytes.subarray(at, at + size));
    const crc = page.readUInt32LE(22);
    page.writeUInt32LE(0, 22);
    expect(oggCrc(page)).toBe(crc);
    let offset = at + 27 + count;
    const packets = lacing.map((length) => {
      const packet = bytes.subarray(offset, offset + length);
      offset += length;
      return packet;
    });
    pages.push({
      flags: bytes.readUInt8(at + 5),
      granule: bytes.readBigInt64LE(at + 6),
      sequence: bytes.readUInt32LE(at + 18),
      packets,
    });
    at += size;
  }
  return pages;
}

function crc16(bytes: Buffer): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x8005) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

describe("POST /v1/audio/speech formats", () => {
  it("wav: RIFF/WAVE, 24 kHz 16-bit mono PCM of the speech's duration, the text in LIST/INFO", async () => {
    const { status, type, bytes } = await speak({ input: INPUT, response_format: "wav" });
    expect(status).toBe(200);
    expect(type).toBe("audio/wav");
    expect(bytes.toString("latin1", 0, 4)).toBe("RIFF");
    expect(bytes.readUInt32LE(4)).toBe(bytes.length - 8);
    expect(bytes.toString("latin1", 8, 16)).toBe("WAVEfmt ");
    expect(bytes.readUInt16LE(20)).toBe(1); // PCM
    expect(bytes.readUInt16LE(22)).toBe(1); // mono
    expect(bytes.readUInt32LE(24)).toBe(24_000);
    expect(bytes.readUInt16LE(34)).toBe(16);
    expect(readWav(bytes)).toEqual({ durationSeconds: DURATION_MS / 1000, comment: INPUT });
  });

  it("pcm: raw 16-bit samples at 24 kHz, no header", async () => {
    const { type, bytes } = await speak({ input: INPUT, response_format: "pcm" });
    expect(type).toBe("audio/pcm");
    expect(bytes.length).toBe((24_000 * DURATION_MS * 2) / 1000);
    expect(bytes.every((b) => b === 0)).toBe(true);
  });

  it("opus: Ogg pages with valid CRCs, OpusHead, OpusTags, silent packets, EOS at the duration", async () => {
    const { type, bytes } = await speak({ input: INPUT, response_format: "opus" });
    expect(type).toBe("audio/opus");
    const pages = oggPages(bytes);
    expect(pages.map((p) => p.sequence)).toEqual(pages.map((_, i) => i));
    const [head, tags, ...audio] = pages;
    expect(head!.flags).toBe(0x02);
    expect(head!.packets[0]!.toString("latin1", 0, 8)).toBe("OpusHead");
    expect(head!.packets[0]!.readUInt8(8)).toBe(1); // version
    const preSkip = head!.packets[0]!.readUInt16LE(10);
    expect(tags!.packets[0]!.toString("latin1", 0, 8)).toBe("OpusTags");
    expect(audio.length).toBeGreaterThan(0);
    expect(audio.at(-1)!.flags).toBe(0x04);
    expect(Number(audio.at(-1)!.granule) - preSkip).toBe(48 * DURATION_MS);
    const packets = audio.flatMap((p) => p.packets);
    expect(packets.every((p) => p[0] === 0xf8)).toBe(true); // CELT, 20 ms, mono, one frame
    expect(packets.length * 960).toBeGreaterThanOrEqual(48 * DURATION_MS + preSkip);
  });

  it("aac: back-to-back ADTS frames (AAC-LC, 24 kHz, mono) covering the duration", async () => {
    const { type, bytes } = await speak({ input: INPUT, response_format: "aac" });
    expect(type).toBe("audio/aac");
    let frames = 0;
    for (let at = 0; at < bytes.length; frames++) {
      expect(bytes.readUInt16BE(at) & 0xfff6).toBe(0xfff0); // sync, layer 0
      const profile = bytes[at + 2]! >> 6;
      const rateIndex = (bytes[at + 2]! >> 2) & 0xf;
      const channels = ((bytes[at + 2]! & 1) << 2) | (bytes[at + 3]! >> 6);
      expect([profile, rateIndex, channels]).toEqual([1, 6, 1]);
      const length = ((bytes[at + 3]! & 3) << 11) | (bytes[at + 4]! << 3) | (bytes[at + 5]! >> 5);
      expect(length).toBeGreaterThan(7);
      at += length;
      expect(at).toBeLessThanOrEqual(bytes.length);
    }
    expect(frames).toBe(Math.ceil(DURATION_MS / ((1024 / 24_000) * 1000)));
  });

  it("flac: fLaC, STREAMINFO with the sample count, frames with valid CRC-16s adding up to it", async () => {
    const { type, bytes } = await speak({ input: INPUT, response_format: "flac" });
    expect(type).toBe("audio/flac");
    expect(bytes.toString("latin1", 0, 4)).toBe("fLaC");
    expect(bytes[4]).toBe(0x80); // last metadata block, STREAMINFO
    expect(bytes.readUIntBE(5, 3)).toBe(34);
    const packed = bytes.readBigUInt64BE(8 + 10);
    const rate = Number(packed >> 44n);
    const samples = Number(packed & 0xfffffffffn);
    expect(rate).toBe(24_000);
    expect(samples).toBe((24_000 * DURATION_MS) / 1000);
    // Frames: sync 0xfff8, then each ends with the CRC-16 of everything before it in the frame.
    const starts: number[] = [];
    for (let at = 42; at < bytes.length - 1; at++) {
      if (bytes[at] === 0xff && bytes[at + 1] === 0xf8) starts.push(at);
    }
    starts.push(bytes.length);
    let total = 0;
    for (let i = 0; i + 1 < starts.length; i++) {
      const frame = bytes.subarray(starts[i]!, starts[i + 1]!);
      expect(crc16(frame.subarray(0, -2))).toBe(frame.readUInt16BE(frame.length - 2));
      const code = frame[2]! >> 4;
      total += code === 0b1100 ? 4096 : frame.readUInt16BE(frame.length - 2 - 3 - 1 - 2) + 1;
    }
    expect(total).toBe(samples);
  });

  it("mp3 stays OpenAI's default when no format is named", async () => {
    const { type, bytes } = await speak({ input: INPUT });
    expect(type).toBe("audio/mpeg");
    expect(bytes.toString("latin1", 0, 3)).toBe("ID3");
  });

  it("every format it offers encodes, and longer text is longer audio", () => {
    for (const format of Object.values(AUDIO_FORMATS)) {
      expect(format.encode(2000, "x").length).toBeGreaterThan(format.encode(200, "x").length);
    }
  });
});

describe("POST /v1/audio/speech limits, as OpenAI refuses them", () => {
  it("refuses input over 4096 characters and a speed outside 0.25..4 with 400", async () => {
    expect((await speak({ input: "a".repeat(4096), response_format: "pcm" })).status).toBe(200);
    expect((await speak({ input: "a".repeat(4097) })).status).toBe(400);
    expect((await speak({ input: "hi", speed: 0.2 })).status).toBe(400);
    expect((await speak({ input: "hi", speed: 4.5 })).status).toBe(400);
    expect((await speak({ input: "hi", speed: "fast" })).status).toBe(400);
    expect((await speak({ input: "hi", speed: 4 })).status).toBe(200);
  });
});
