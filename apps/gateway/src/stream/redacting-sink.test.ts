import { keyRedactor } from "@interlingua/errors";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { byteRedactor, redactingSink } from "./redacting-sink.ts";

const KEYS = ["sk-live-0123456789abcdef", "sim-key"];
const redactor = keyRedactor(KEYS);
const encoder = new TextEncoder();

/** The bytes cut at the given offsets (sorted, deduplicated, inside the text). */
function cut(bytes: Uint8Array, at: number[]): Uint8Array[] {
  const offsets = [...new Set(at.map((n) => n % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const offset of offsets) {
    chunks.push(bytes.subarray(from, offset));
    from = offset;
  }
  chunks.push(bytes.subarray(from));
  return chunks;
}

/** The text-level reference: every chunk decoded, redacted by the redactor's stream, encoded. */
function reference(chunks: Uint8Array[]): string {
  const decoder = new TextDecoder();
  const text = redactor.stream();
  let out = "";
  for (const chunk of chunks) out += text.push(decoder.decode(chunk, { stream: true }));
  return out + text.push(decoder.decode()) + text.end();
}

function relayed(chunks: Uint8Array[], endWithLast: boolean): string {
  const sent: Uint8Array[] = [];
  const sink = redactingSink(
    {
      write: (bytes) => sent.push(bytes) > 0,
      end: (last) => void (last !== undefined && sent.push(last)),
      waiting: () => true,
    },
    redactor,
  );
  const last = endWithLast ? chunks.at(-1) : undefined;
  for (const chunk of endWithLast ? chunks.slice(0, -1) : chunks) sink.write(chunk);
  sink.end(last);
  return Buffer.concat(sent).toString("utf8");
}

// Text pieces around the keys: ASCII, multi-byte characters (split across chunks too), and
// slices of the keys themselves.
const piece = fc.oneof(
  fc.string(),
  fc.constantFrom("é", "€", "😀", 'data: {"x":1}\n\n', "\u0000"),
  fc.constantFrom(...KEYS),
  fc.constantFrom(...KEYS).map((key) => key.slice(2, 12)),
);

describe("redactingSink", () => {
  it("sends what the redactor's text stream makes of the same chunks, however they are cut", () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.boolean(),
        (pieces, at, endWithLast) => {
          const text = pieces.join("");
          const chunks = cut(encoder.encode(text), at);
          expect(relayed(chunks, endWithLast)).toBe(reference(chunks));
          // Nothing of a key gets out whole.
          for (const key of KEYS) expect(relayed(chunks, endWithLast)).not.toContain(key);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("catches a key cut across two chunks", () => {
    const chunks = cut(encoder.encode("data: sk-live-0123456789abcdef\n\n"), [14]);
    expect(relayed(chunks, false)).toBe("data: [redacted]\n\n");
  });

  it("passes a chunk with nothing to redact as the bytes it came in", () => {
    const chunk = encoder.encode('data: {"delta":"plain text"}\n\n');
    expect(byteRedactor(redactor).push(chunk)).toBe(chunk);
  });

  it("re-encodes invalid UTF-8 as the text redactor reads it", () => {
    const bytes = new Uint8Array([0x61, 0xff, 0x62]);
    expect(relayed([bytes], false)).toBe(new TextDecoder().decode(bytes));
  });
});

describe("redactingSink given the text its relay read a chunk as", () => {
  /** As `relayed`, every chunk written with `hint(chunk)` as its text. */
  function relayedWith(chunks: Uint8Array[], hint: (chunk: Uint8Array) => string): string {
    const sent: Uint8Array[] = [];
    const sink = redactingSink(
      {
        write: (bytes) => sent.push(bytes) > 0,
        end: (last) => void (last !== undefined && sent.push(last)),
        waiting: () => true,
      },
      redactor,
    );
    for (const chunk of chunks) sink.write(chunk, hint(chunk));
    sink.end();
    return Buffer.concat(sent).toString("utf8");
  }
  const latin1 = (chunk: Uint8Array) => Buffer.from(chunk).toString("latin1");

  it("redacts exactly as without it, and a text that is not the chunk's is not read", () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (pieces, at) => {
          const chunks = cut(encoder.encode(pieces.join("")), at);
          expect(relayedWith(chunks, latin1)).toBe(reference(chunks));
          expect(relayedWith(chunks, (c) => `${latin1(c)}x`)).toBe(reference(chunks));
        },
      ),
      { numRuns: 300 },
    );
  });
});
