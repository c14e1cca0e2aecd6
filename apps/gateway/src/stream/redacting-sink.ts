import { isAscii } from "node:buffer";
import type { KeyRedactor } from "@interlingua/errors";
import type { RelaySink } from "./relay.ts";

/** A redactor for bytes arriving in chunks: what may be sent now, and the held-back rest. */
export interface ByteRedactor {
  /** What may be sent of this chunk now: the chunk itself when it holds no (start of a) key. */
  push(chunk: Uint8Array): Uint8Array;
  /** What was held back, redacted: call once, at the end. */
  end(last?: Uint8Array): Uint8Array;
}

const EMPTY = new Uint8Array(0);
const bytes = (text: string) => (text.length === 0 ? EMPTY : Buffer.from(text, "utf8"));
const view = (chunk: Uint8Array) =>
  Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);

/**
 * Relayed chunks are nearly always ASCII: a cheap Latin-1 decode, and when nothing is redacted the
 * very bytes go out. Others take a streaming UTF-8 decoder until one ends on an ASCII byte.
 */
export function byteRedactor(redactor: KeyRedactor): ByteRedactor {
  const decoder = new TextDecoder();
  const text = redactor.stream();
  // The decoder may hold the first bytes of a character: later chunks go through it too.
  let pending = false;
  const decode = (chunk: Uint8Array): string => {
    if (chunk.length > 0) pending = (chunk[chunk.length - 1] as number) >= 0x80;
    return decoder.decode(chunk, { stream: true });
  };
  return {
    push(chunk) {
      if (pending || !isAscii(chunk)) return bytes(text.push(decode(chunk)));
      const input = view(chunk).toString("latin1");
      const out = text.push(input);
      // The same string: nothing was redacted, held back, or carried in from the last chunk.
      return out === input ? chunk : bytes(out);
    },
    end(last) {
      const tail = last === undefined ? "" : decode(last);
      return bytes(text.push(tail + decoder.decode()) + text.end());
    },
  };
}

/**
 * Redacts upstream keys from every relayed byte, the same-format fast path included; the
 * redactor's carry-over catches a key split across chunks, holding back only a possible start.
 */
export function redactingSink(sink: RelaySink, redactor: KeyRedactor): RelaySink {
  const redact = byteRedactor(redactor);
  return {
    write(chunk) {
      const out = redact.push(chunk);
      return out.length === 0 ? true : sink.write(out);
    },
    end(last) {
      const out = redact.end(last);
      if (out.length === 0) sink.end();
      else sink.end(out);
    },
    waiting: () => sink.waiting(),
  };
}
