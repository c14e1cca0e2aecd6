// A tiny but decodable H.264 (Baseline, CAVLC) stream of a mid-grey picture: an IDR frame whose
// macroblocks are all Intra 16x16 DC prediction without residual (so every sample predicts 128),
// then P frames that skip every macroblock. A real decoder plays it; it costs about one byte per
// macroblock once, and a few bytes per following frame.

/** Writes bits most significant first, with the Exp-Golomb codes the H.264 syntax uses. */
class BitWriter {
  private readonly bytes: number[] = [];
  private current = 0;
  private filled = 0;

  bit(value: number): this {
    this.current = (this.current << 1) | (value & 1);
    this.filled += 1;
    if (this.filled === 8) {
      this.bytes.push(this.current);
      this.current = 0;
      this.filled = 0;
    }
    return this;
  }

  bits(value: number, count: number): this {
    for (let i = count - 1; i >= 0; i--) this.bit((value >>> i) & 1);
    return this;
  }

  /** ue(v): unsigned Exp-Golomb. */
  ue(value: number): this {
    const coded = value + 1;
    const length = Math.floor(Math.log2(coded));
    this.bits(0, length);
    return this.bits(coded, length + 1);
  }

  /** se(v): signed Exp-Golomb. */
  se(value: number): this {
    return this.ue(value > 0 ? 2 * value - 1 : -2 * value);
  }

  /** rbsp_trailing_bits: a stop bit, then zeros to the byte boundary. */
  trailing(): Uint8Array {
    this.bit(1);
    while (this.filled !== 0) this.bit(0);
    return Uint8Array.from(this.bytes);
  }
}

/** Inserts emulation-prevention bytes so the payload never holds a start code. */
function preventEmulation(rbsp: Uint8Array): Buffer {
  const out: number[] = [];
  let zeros = 0;
  for (const byte of rbsp) {
    if (zeros >= 2 && byte <= 3) {
      out.push(3);
      zeros = 0;
    }
    out.push(byte);
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return Buffer.from(out);
}

function nal(refIdc: number, type: number, rbsp: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([(refIdc << 5) | type]), preventEmulation(rbsp)]);
}

export type H264Stream = {
  sps: Buffer;
  pps: Buffer;
  /** NAL units (without length prefix or start code), one per frame; the first is the IDR. */
  frames: Buffer[];
  profile: number;
  compatibility: number;
  level: number;
};

const LOG2_MAX_FRAME_NUM = 4;
const BASELINE = 66;
const CONSTRAINED = 0xc0; // constraint_set0 and constraint_set1: Constrained Baseline

function levelFor(macroblocks: number): number {
  if (macroblocks <= 3600) return 31; // 1280x720
  if (macroblocks <= 8192) return 40; // 1920x1080
  return 51; // 3840x2160
}

function sequenceParameterSet(width: number, height: number, level: number): Uint8Array {
  const widthMbs = Math.ceil(width / 16);
  const heightMbs = Math.ceil(height / 16);
  const cropRight = (widthMbs * 16 - width) / 2; // crop units are 2 samples in 4:2:0
  const cropBottom = (heightMbs * 16 - height) / 2;
  const w = new BitWriter().bits(BASELINE, 8).bits(CONSTRAINED, 8).bits(level, 8);
  w.ue(0); // seq_parameter_set_id
  w.ue(LOG2_MAX_FRAME_NUM - 4);
  w.ue(2); // pic_order_cnt_type 2: output order is decoding order
  w.ue(1); // max_num_ref_frames
  w.bit(0); // gaps_in_frame_num_value_allowed_flag
  w.ue(widthMbs - 1).ue(heightMbs - 1);
  w.bit(1); // frame_mbs_only_flag
  w.bit(1); // direct_8x8_inference_flag
  if (cropRight > 0 || cropBottom > 0) {
    w.bit(1).ue(0).ue(cropRight).ue(0).ue(cropBottom);
  } else {
    w.bit(0);
  }
  w.bit(0); // vui_parameters_present_flag
  return w.trailing();
}

function pictureParameterSet(): Uint8Array {
  const w = new BitWriter();
  w.ue(0).ue(0); // pic_parameter_set_id, seq_parameter_set_id
  w.bit(0); // entropy_coding_mode_flag: CAVLC
  w.bit(0); // bottom_field_pic_order_in_frame_present_flag
  w.ue(0); // num_slice_groups_minus1
  w.ue(0).ue(0); // num_ref_idx_l0/l1_default_active_minus1
  w.bit(0).bits(0, 2); // weighted_pred_flag, weighted_bipred_idc
  w.se(0).se(0).se(0); // pic_init_qp_minus26, pic_init_qs_minus26, chroma_qp_index_offset
  w.bit(1); // deblocking_filter_control_present_flag
  w.bit(0).bit(0); // constrained_intra_pred_flag, redundant_pic_cnt_present_flag
  return w.trailing();
}

function idrSlice(macroblocks: number): Uint8Array {
  const w = new BitWriter();
  w.ue(0).ue(7).ue(0); // first_mb_in_slice, slice_type I (all slices), pic_parameter_set_id
  w.bits(0, LOG2_MAX_FRAME_NUM); // frame_num
  w.ue(0); // idr_pic_id
  w.bit(0).bit(0); // dec_ref_pic_marking: no_output_of_prior_pics_flag, long_term_reference_flag
  w.se(0); // slice_qp_delta
  w.ue(1); // disable_deblocking_filter_idc
  for (let i = 0; i < macroblocks; i++) {
    w.ue(3); // mb_type I_16x16, DC prediction, no coded luma or chroma
    w.ue(0); // intra_chroma_pred_mode DC
    w.se(0); // mb_qp_delta
    w.bit(1); // Intra16x16DCLevel coeff_token: no coefficients
  }
  return w.trailing();
}

function skippedSlice(frameNum: number, macroblocks: number): Uint8Array {
  const w = new BitWriter();
  w.ue(0).ue(5).ue(0); // first_mb_in_slice, slice_type P (all slices), pic_parameter_set_id
  w.bits(frameNum, LOG2_MAX_FRAME_NUM);
  w.bit(0); // num_ref_idx_active_override_flag
  w.bit(0); // ref_pic_list_modification_flag_l0
  w.bit(0); // adaptive_ref_pic_marking_mode_flag: sliding window
  w.se(0); // slice_qp_delta
  w.ue(1); // disable_deblocking_filter_idc
  w.ue(macroblocks); // mb_skip_run: every macroblock copies the previous frame
  return w.trailing();
}

/** `frames` pictures of width x height (even numbers), mid-grey. */
export function greyH264(width: number, height: number, frames: number): H264Stream {
  const macroblocks = Math.ceil(width / 16) * Math.ceil(height / 16);
  const level = levelFor(macroblocks);
  const max = 1 << LOG2_MAX_FRAME_NUM;
  const list = [nal(3, 5, idrSlice(macroblocks))];
  // Reference P frames number 1, 2, ... modulo MaxFrameNum; identical apart from that number.
  const skipped = Array.from({ length: max }, (_, n) => nal(2, 1, skippedSlice(n, macroblocks)));
  for (let i = 1; i < frames; i++) list.push(skipped[i % max]!);
  return {
    sps: nal(3, 7, sequenceParameterSet(width, height, level)),
    pps: nal(3, 8, pictureParameterSet()),
    frames: list,
    profile: BASELINE,
    compatibility: CONSTRAINED,
    level,
  };
}
