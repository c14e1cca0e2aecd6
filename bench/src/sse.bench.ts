// SSE framing on one core: decode and encode throughput (events/s, MB/s) over every recorded
// provider stream in fixtures/, framed as its upstream sends it, repeated to a few MB.
// The streaming decoder is fed the way bodies arrive: one upstream frame per read (a live LLM
// stream), then 1 KiB and 16 KiB reads (a fast or buffered connection).
//   pnpm --filter @interlingua/sse build && cd bench && node src/sse.bench.ts
import { readdirSync, readFileSync } from "node:fs";
import {
  decodeSse,
  decodeSseText,
  encodeSse,
  encodeSseEvent,
  type SseEvent,
} from "@interlingua/sse";
import {
  fixtureFolderProtocols,
  frameRecording,
  readableOf,
  recordingLines,
} from "@interlingua/sse/testing";
import { type Measurement, measure, measureAsync, report } from "./measure.ts";

const fixtures = new URL("../../fixtures/", import.meta.url);
const frames: string[] = Object.entries(fixtureFolderProtocols).flatMap(([folder, protocol]) =>
  readdirSync(new URL(`${folder}/`, fixtures))
    .filter((file) => file.endsWith(".chunks.txt"))
    .flatMap((file) => {
      const lines = recordingLines(readFileSync(new URL(`${folder}/${file}`, fixtures), "utf8"));
      // One upstream frame each, so the per-frame feed splits exactly where the wire does.
      return frameRecording(lines, protocol).split(/(?<=\n\n|\r\n\r\n)/);
    }),
);

const utf8 = new TextEncoder();
const corpus = frames.join("");
const corpusBytes = utf8.encode(corpus).length;
const corpusEvents = decodeSseText(corpus);
const REPEAT = 8;
const streamBytes = utf8.encode(corpus.repeat(REPEAT));
const streamEvents = corpusEvents.length * REPEAT;

const perFrame = Array.from({ length: REPEAT }, () => frames.map((f) => utf8.encode(f))).flat();
const slices = (size: number) =>
  Array.from({ length: Math.ceil(streamBytes.length / size) }, (_, i) =>
    streamBytes.subarray(i * size, (i + 1) * size),
  );

async function drain<T>(stream: ReadableStream<T>, count: (chunk: T) => number): Promise<number> {
  const reader = stream.getReader();
  let n = 0;
  for (;;) {
    const next = await reader.read();
    if (next.done) return n;
    n += count(next.value);
  }
}

let sink = 0;
const decodeStream = (name: string, chunks: Uint8Array[]) =>
  measureAsync(
    `decodeSse stream, ${name} (${chunks.length} reads)`,
    async () => {
      sink += await drain(readableOf(chunks).pipeThrough(decodeSse()), () => 1);
    },
    { unitsPerOp: streamEvents, bytesPerOp: streamBytes.length },
  );

const perEvents = (row: Measurement, events: number): Measurement => ({
  ...row,
  opsPerSecond: row.opsPerSecond * events,
});

const decodeRows = [
  await decodeStream("one frame per read", perFrame),
  await decodeStream("1 KiB reads", slices(1024)),
  await decodeStream("16 KiB reads", slices(16 * 1024)),
  perEvents(
    measure(
      "decodeSseText (sync)",
      () => {
        sink += decodeSseText(corpus).length;
      },
      { bytesPerOp: corpusBytes },
    ),
    corpusEvents.length,
  ),
];

const manyEvents: SseEvent[] = Array.from({ length: REPEAT }, () => corpusEvents).flat();
const encodeRows = [
  await measureAsync(
    "encodeSse stream (one chunk per event)",
    async () => {
      sink += await drain(readableOf(manyEvents).pipeThrough(encodeSse()), (c) => c.length);
    },
    { unitsPerOp: streamEvents, bytesPerOp: streamBytes.length },
  ),
  perEvents(
    measure(
      "encodeSseEvent + TextEncoder (sync)",
      () => {
        for (const event of corpusEvents) sink += utf8.encode(encodeSseEvent(event)).length;
      },
      { bytesPerOp: corpusBytes },
    ),
    corpusEvents.length,
  ),
];

console.log(
  `corpus: ${frames.length} frames from the recordings, ${(corpusBytes / 1e3).toFixed(0)} kB; ` +
    `streams repeat it ${REPEAT}x (${(streamBytes.length / 1e6).toFixed(1)} MB, ${streamEvents} events)`,
);
report([...decodeRows, ...encodeRows], "events/s");
if (sink === 0) console.log("(sink)");
