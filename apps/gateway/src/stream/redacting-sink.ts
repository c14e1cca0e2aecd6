import type { KeyRedactor } from "@interlingua/errors";
import type { RelaySink } from "./relay.ts";

/**
 * A sink that redacts the gateway's upstream keys from every byte a relay sends (the same-format
 * fast path included, whose bytes are otherwise the upstream's own). Chunk by chunk, with the
 * redactor's carry-over: a key split across two chunks is still caught, and nothing is held
 * back but a possible start of one.
 */
export function redactingSink(sink: RelaySink, redactor: KeyRedactor): RelaySink {
  const decoder = new TextDecoder();
  const text = redactor.stream();
  const bytes = (out: string) => Buffer.from(out, "utf8");
  return {
    write(chunk) {
      const out = text.push(decoder.decode(chunk, { stream: true }));
      return out.length === 0 ? true : sink.write(bytes(out));
    },
    end(last) {
      const tail = last === undefined ? "" : decoder.decode(last, { stream: true });
      const out = text.push(tail + decoder.decode()) + text.end();
      if (out.length === 0) sink.end();
      else sink.end(bytes(out));
    },
    waiting: () => sink.waiting(),
  };
}
