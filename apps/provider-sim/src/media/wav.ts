// 16-bit mono PCM WAV. The speech endpoint writes the spoken text into a LIST/INFO comment, and
// the transcription endpoint reads it back, so speech -> transcription round-trips in tests.

export const SPEECH_SAMPLE_RATE = 24_000;

function riffChunk(id: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(id, 0, "latin1");
  head.writeUInt32LE(data.length, 4);
  return Buffer.concat([head, data, data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

export function wav(pcm: Buffer, sampleRate: number, comment?: string): Buffer {
  const format = Buffer.alloc(16);
  format.writeUInt16LE(1, 0); // PCM
  format.writeUInt16LE(1, 2); // mono
  format.writeUInt32LE(sampleRate, 4);
  format.writeUInt32LE(sampleRate * 2, 8); // byte rate
  format.writeUInt16LE(2, 12); // block align
  format.writeUInt16LE(16, 14); // bits per sample
  const chunks = [riffChunk("fmt ", format)];
  if (comment !== undefined) {
    const info = Buffer.concat([
      Buffer.from("INFO", "latin1"),
      riffChunk("ICMT", Buffer.from(`${comment}\0`, "utf8")),
    ]);
    chunks.push(riffChunk("LIST", info));
  }
  chunks.push(riffChunk("data", pcm));
  const body = Buffer.concat([Buffer.from("WAVE", "latin1"), ...chunks]);
  return riffChunk("RIFF", body);
}

export type WavInfo = { durationSeconds: number; comment: string | undefined };

export function readWav(bytes: Uint8Array): WavInfo | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (
    buffer.length < 12 ||
    buffer.toString("latin1", 0, 4) !== "RIFF" ||
    buffer.toString("latin1", 8, 12) !== "WAVE"
  ) {
    return undefined;
  }
  let byteRate = 0;
  let dataBytes = 0;
  let comment: string | undefined;
  for (let at = 12; at + 8 <= buffer.length; ) {
    const id = buffer.toString("latin1", at, at + 4);
    const size = buffer.readUInt32LE(at + 4);
    const start = at + 8;
    if (id === "fmt " && size >= 16) byteRate = buffer.readUInt32LE(start + 8);
    if (id === "data") dataBytes = Math.min(size, buffer.length - start);
    if (id === "LIST" && buffer.toString("latin1", start, start + 4) === "INFO") {
      const text = buffer.subarray(start + 4, start + size);
      const icmt = text.indexOf("ICMT", 0, "latin1");
      if (icmt >= 0) {
        const length = text.readUInt32LE(icmt + 4);
        comment = text.toString("utf8", icmt + 8, icmt + 8 + length).replace(/\0+$/, "");
      }
    }
    at = start + size + (size % 2);
  }
  if (byteRate === 0) return undefined;
  return { durationSeconds: dataBytes / byteRate, comment };
}
