// A small ISO-BMFF reader for the simulator's tests: walks boxes and reads the few fields tests
// assert (durations, frame sizes, handlers, sample tables), independently of media/mp4.ts.

export type Box = { type: string; start: number; end: number; body: Buffer };

const CONTAINERS = new Set(["moov", "trak", "mdia", "minf", "stbl", "dinf"]);

export function boxes(data: Buffer, start = 0, end = data.length): Box[] {
  const list: Box[] = [];
  let at = start;
  while (at + 8 <= end) {
    const size = data.readUInt32BE(at);
    if (size < 8 || at + size > end) throw new Error(`bad box size ${size} at ${at}`);
    const type = data.toString("latin1", at + 4, at + 8);
    list.push({ type, start: at, end: at + size, body: data.subarray(at + 8, at + size) });
    at += size;
  }
  if (at !== end) throw new Error(`trailing bytes at ${at}`);
  return list;
}

/** The first box at a path such as `moov/trak/mdia/mdhd`, searching containers only. */
export function find(data: Buffer, path: string, from: Box[] = boxes(data)): Box | undefined {
  const [head, ...rest] = path.split("/");
  const box = from.find((b) => b.type === head);
  if (!box || rest.length === 0) return box;
  if (!CONTAINERS.has(box.type)) return undefined;
  return find(data, rest.join("/"), boxes(data, box.start + 8, box.end));
}

export function tracks(data: Buffer): Box[] {
  const moov = find(data, "moov");
  if (!moov) return [];
  return boxes(data, moov.start + 8, moov.end).filter((b) => b.type === "trak");
}

export type TrackInfo = {
  handler: string;
  width: number;
  height: number;
  timescale: number;
  duration: number;
  sampleSizes: number[];
  chunkOffset: number;
  sampleEntry: Buffer;
};

export function trackInfo(data: Buffer, trak: Box): TrackInfo {
  const inner = boxes(data, trak.start + 8, trak.end);
  const at = (path: string) => {
    const b = find(data, path, inner);
    if (!b) throw new Error(`missing ${path}`);
    return b.body;
  };
  const tkhd = at("tkhd");
  const mdhd = at("mdia/mdhd");
  const stsz = at("mdia/minf/stbl/stsz");
  const count = stsz.readUInt32BE(8);
  const stsd = at("mdia/minf/stbl/stsd");
  return {
    handler: at("mdia/hdlr").toString("latin1", 8, 12),
    width: tkhd.readUInt32BE(76) / 0x10000,
    height: tkhd.readUInt32BE(80) / 0x10000,
    timescale: mdhd.readUInt32BE(12),
    duration: mdhd.readUInt32BE(16),
    sampleSizes: Array.from({ length: count }, (_, i) => stsz.readUInt32BE(12 + 4 * i)),
    chunkOffset: at("mdia/minf/stbl/stco").readUInt32BE(8),
    sampleEntry: stsd.subarray(8),
  };
}

/** mvhd duration in seconds. */
export function movieSeconds(data: Buffer): number {
  const mvhd = find(data, "moov/mvhd");
  if (!mvhd) throw new Error("missing mvhd");
  return mvhd.body.readUInt32BE(16) / mvhd.body.readUInt32BE(12);
}

/** Reads Exp-Golomb coded fields of an H.264 RBSP (emulation prevention removed first). */
export class BitReader {
  private bit = 0;
  private readonly bytes: Buffer;

  constructor(nal: Buffer) {
    const out: number[] = [];
    for (let i = 0; i < nal.length; i++) {
      if (i >= 2 && nal[i] === 3 && nal[i - 1] === 0 && nal[i - 2] === 0) continue;
      out.push(nal[i]!);
    }
    this.bytes = Buffer.from(out);
  }

  u(count: number): number {
    let value = 0;
    for (let i = 0; i < count; i++) {
      const byte = this.bytes[this.bit >> 3] ?? 0;
      value = (value << 1) | ((byte >> (7 - (this.bit & 7))) & 1);
      this.bit += 1;
    }
    return value;
  }

  ue(): number {
    let zeros = 0;
    while (this.u(1) === 0) zeros += 1;
    return (1 << zeros) - 1 + this.u(zeros);
  }
}

/** Picture size an H.264 SPS NAL unit (header byte included) declares, cropping applied. */
export function spsSize(sps: Buffer): { width: number; height: number; profile: number } {
  const r = new BitReader(sps.subarray(1));
  const profile = r.u(8);
  r.u(16); // constraint flags, level
  r.ue(); // seq_parameter_set_id
  r.ue(); // log2_max_frame_num_minus4
  const pocType = r.ue();
  if (pocType !== 2) throw new Error("the reader only handles pic_order_cnt_type 2");
  r.ue(); // max_num_ref_frames
  r.u(1);
  const widthMbs = r.ue() + 1;
  const heightMbs = r.ue() + 1;
  r.u(2); // frame_mbs_only_flag, direct_8x8_inference_flag
  let [right, bottom] = [0, 0];
  if (r.u(1) === 1) {
    r.ue();
    right = r.ue();
    r.ue();
    bottom = r.ue();
  }
  return { width: widthMbs * 16 - 2 * right, height: heightMbs * 16 - 2 * bottom, profile };
}
