import { isAscii } from "node:buffer";
import type { KeyRedactor } from "@interlingua/errors";
import type { RelaySink } from "./relay.ts";

/** A redactor for bytes arriving in chunks: what may be sent now, and the held-back rest. */
export interface ByteRedactor {
  /**
   * What may be sent of this chunk now: the chunk itself when it holds no (start of a) key.
   * `text`: the chunk as Latin-1 (or the string it was made of), read instead of decoding it
   * again when the chunk is ASCII, where the two are the same.
   */
  push(chunk: Uint8Array, text?: string): Uint8Array;
  /** What was held back, redacted: call once, at the end. */
  end(last?: Uint8Array): Uint8Array;
}

const EMPTY = new Uint8Array(0);
const STREAMING = { stream: true } as const;
const bytes = (text: string) => (text.length === 0 ? EMPTY : Buffer.from(text, "utf8"));
const view = (chunk: Uint8Array) =>
  Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);

/**
 * Relayed chunks are nearly always ASCII: a cheap Latin-1 decode, and when nothing is redacted the
 * very bytes go out. Others take a streaming UTF-8 decoder until one ends on an ASCII byte.
 */
export function byteRedactor(redactor: KeyRedactor): ByteRedactor {
  return new BytesRedacted(redactor);
}

/** A class, not a closure per method: one lives as long as each stream it redacts. */
class BytesRedacted implements ByteRedactor {
  private readonly decoder = new TextDecoder();
  private readonly text: ReturnType<KeyRedactor["stream"]>;
  // The decoder may hold the first bytes of a character: later chunks go through it too.
  private pending = false;

  constructor(redactor: KeyRedactor) {
    this.text = redactor.stream();
  }

  push(chunk: Uint8Array, text?: string): Uint8Array {
    if (this.pending || !isAscii(chunk)) return bytes(this.text.push(this.decode(chunk)));
    // A text of another length is not this chunk's: decoded here instead.
    const input = text?.length === chunk.length ? text : view(chunk).toString("latin1");
    const out = this.text.push(input);
    // The same string: nothing was redacted, held back, or carried in from the last chunk.
    return out === input ? chunk : bytes(out);
  }

  end(last?: Uint8Array): Uint8Array {
    const tail = last === undefined ? "" : this.decode(last);
    return bytes(this.text.push(tail + this.decoder.decode()) + this.text.end());
  }

  private decode(chunk: Uint8Array): string {
    if (chunk.length > 0) this.pending = (chunk[chunk.length - 1] as number) >= 0x80;
    return this.decoder.decode(chunk, STREAMING);
  }
}

/**
 * Redacts upstream keys from every relayed byte, the same-format fast path included; the
 * redactor's carry-over catches a key split across chunks, holding back only a possible start.
 */
export function redactingSink(sink: RelaySink, redactor: KeyRedactor): RelaySink {
  return new RedactingSink(sink, byteRedactor(redactor));
}

class RedactingSink implements RelaySink {
  private readonly sink: RelaySink;
  private readonly redact: ByteRedactor;

  constructor(sink: RelaySink, redact: ByteRedactor) {
    this.sink = sink;
    this.redact = redact;
  }

  write(chunk: Uint8Array, text?: string): boolean {
    const out = this.redact.push(chunk, text);
    return out.length === 0 ? true : this.sink.write(out);
  }

  end(last?: Uint8Array): void {
    const out = this.redact.end(last);
    if (out.length === 0) this.sink.end();
    else this.sink.end(out);
  }

  waiting(): boolean {
    return this.sink.waiting();
  }
}
