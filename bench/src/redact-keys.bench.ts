// What the channel-key redactor costs a relayed stream (every streamed byte passes it): a
// 40-frame chat stream in 180-character chunks, and the same stream with its text wrapped across
// lines (JSON-escaped breaks inside the deltas, which make the redactor look through them).
// Two keys, as a gateway with one channel and one client key has. Rates per CPU second.
//   cd bench && node src/redact-keys.bench.ts
import { keyRedactor } from "@interlingua/errors";
import { measure, report } from "./measure.ts";

const redactor = keyRedactor(["uk-7Hq2-Lm9x-Pz4w-0000", "sk-test-alice-0123456789"]);

const stream = (text: (i: number) => string): string[] => {
  let frames = "";
  for (let i = 0; i < 40; i++) {
    const delta = { index: 0, delta: { content: text(i) }, finish_reason: null };
    frames += `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", model: "txtA-5", choices: [delta] })}\n\n`;
  }
  return frames.match(/[\s\S]{1,180}/g) ?? [];
};

const plain = stream((i) => `word${i} `);
const wrapped = stream((i) => `line ${i}\nnext`);

const through = (chunks: readonly string[]) => () => {
  const run = redactor.stream();
  for (const chunk of chunks) run.push(chunk);
  run.end();
};

report(
  [
    measure("40-frame stream, 180-character chunks", through(plain)),
    measure("the same with a line break in every delta", through(wrapped)),
  ],
  "streams/s",
);
