import { describe, expect, it } from "vitest";
import {
  BitReader,
  boxes,
  movieSeconds,
  spsSize,
  trackInfo,
  tracks,
} from "../testing/mp4-boxes.ts";
import { mp4Video } from "./mp4.ts";

/** The SPS and PPS NAL units of an avc1 sample entry's avcC box. */
function parameterSets(avc1: Buffer): { sps: Buffer; pps: Buffer; level: number } {
  const entry = boxes(avc1)[0]!;
  const avcC = boxes(avc1, entry.start + 8 + 78, entry.end).find((b) => b.type === "avcC")!.body;
  const spsLength = avcC.readUInt16BE(6);
  const sps = avcC.subarray(8, 8 + spsLength);
  const ppsLength = avcC.readUInt16BE(9 + spsLength);
  return { sps, pps: avcC.subarray(11 + spsLength, 11 + spsLength + ppsLength), level: avcC[3]! };
}

describe("mp4Video", () => {
  it("is an ISO-BMFF file: ftyp, free, moov, mdat and nothing else", () => {
    const mp4 = mp4Video({ seconds: 8, width: 1280, height: 720, seed: "a" });
    expect(boxes(mp4).map((b) => b.type)).toEqual(["ftyp", "free", "moov", "mdat"]);
    expect(mp4.toString("latin1", 8, 12)).toBe("isom");
    expect(mp4Video({ seconds: 8, width: 1280, height: 720, seed: "b" }).equals(mp4)).toBe(false);
    expect(mp4Video({ seconds: 8, width: 1280, height: 720, seed: "a" }).equals(mp4)).toBe(true);
  });

  it.each([
    [8, 1280, 720],
    [4, 720, 1280],
    [6, 1920, 1080],
    [15, 1080, 1920],
    [8, 3840, 2160],
  ])(
    "declares %ss at %ix%i in the movie, the track and the H.264 SPS",
    (seconds, width, height) => {
      const mp4 = mp4Video({ seconds, width, height, seed: "s" });
      expect(movieSeconds(mp4)).toBe(seconds);
      const [video, audio] = tracks(mp4).map((t) => trackInfo(mp4, t));
      expect(video).toMatchObject({ handler: "vide", width, height });
      expect(video!.duration / video!.timescale).toBe(seconds);
      expect(video!.sampleSizes).toHaveLength(seconds * 24);
      expect(audio!.handler).toBe("soun");
      expect(audio!.duration / audio!.timescale).toBe(seconds);
      const { sps } = parameterSets(video!.sampleEntry);
      expect(spsSize(sps)).toEqual({ width, height, profile: 66 });
    },
  );

  it("places every sample inside mdat where the sample tables say", () => {
    const mp4 = mp4Video({ seconds: 4, width: 1280, height: 720, seed: "s" });
    const mdat = boxes(mp4).find((b) => b.type === "mdat")!;
    const [video, audio] = tracks(mp4).map((t) => trackInfo(mp4, t));
    const videoBytes = video!.sampleSizes.reduce((a, b) => a + b, 0);
    const audioBytes = audio!.sampleSizes.reduce((a, b) => a + b, 0);
    expect(video!.chunkOffset).toBe(mdat.start + 8);
    expect(audio!.chunkOffset).toBe(mdat.start + 8 + videoBytes);
    expect(mdat.end).toBe(audio!.chunkOffset + audioBytes);
    // Each video sample is one length-prefixed NAL unit: an IDR slice, then P slices.
    let at = video!.chunkOffset;
    video!.sampleSizes.forEach((size, i) => {
      expect(mp4.readUInt32BE(at)).toBe(size - 4);
      expect(mp4[at + 4]! & 0x1f).toBe(i === 0 ? 5 : 1);
      at += size;
    });
  });

  it("codes an IDR slice of Intra 16x16 DC macroblocks without residual", () => {
    const mp4 = mp4Video({ seconds: 1, width: 1280, height: 720, seed: "s" });
    const video = trackInfo(mp4, tracks(mp4)[0]!);
    const r = new BitReader(mp4.subarray(video.chunkOffset + 5));
    expect([r.ue(), r.ue(), r.ue(), r.u(4), r.ue()]).toEqual([0, 7, 0, 0, 0]); // … frame_num, idr_pic_id
    r.u(2); // dec_ref_pic_marking
    expect([r.ue(), r.ue()]).toEqual([0, 1]); // slice_qp_delta, deblocking disabled
    for (let mb = 0; mb < 3; mb++) {
      expect([r.ue(), r.ue(), r.ue(), r.u(1)]).toEqual([3, 0, 0, 1]); // I_16x16_2_0_0, DC chroma, qp, no coeffs
    }
    // 3600 macroblocks of one byte each, plus the header and the stop bit.
    expect(video.sampleSizes[0]).toBeGreaterThan(3600);
    expect(video.sampleSizes[0]).toBeLessThan(3600 + 16);
  });

  it("codes a P slice that skips every macroblock of the picture", () => {
    const mp4 = mp4Video({ seconds: 1, width: 1920, height: 1080, seed: "s" });
    const video = trackInfo(mp4, tracks(mp4)[0]!);
    const second = mp4.subarray(video.chunkOffset + video.sampleSizes[0]! + 4);
    const r = new BitReader(second.subarray(1));
    expect([r.ue(), r.ue(), r.ue()]).toEqual([0, 5, 0]); // first_mb, slice_type P, pps id
    expect(r.u(4)).toBe(1); // frame_num
    r.u(3); // override, list modification, marking flags
    r.ue(); // slice_qp_delta (se, zero)
    expect(r.ue()).toBe(1); // deblocking disabled
    expect(r.ue()).toBe(120 * 68); // mb_skip_run
  });

  it("leaves the sound track out when audio is false", () => {
    const mp4 = mp4Video({ seconds: 8, width: 1280, height: 720, seed: "s", audio: false });
    expect(tracks(mp4).map((t) => trackInfo(mp4, t).handler)).toEqual(["vide"]);
  });
});
