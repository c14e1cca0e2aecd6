import type { PushTransformer } from "./codec.js";

/**
 * Push transformers as web streams that fuse when chained. `a.readable.pipeThrough(b)` between two
 * push streams does not pipe: `a`'s transformers call `b`'s directly, in the same tick, and `b`'s
 * readable gives the output. A chain of `decodeSse -> decode -> encode -> encodeSse` then costs one
 * stream hop instead of four, as `translateSse` does. Everything else behaves as a pipe would:
 * both ends are locked, `b.readable` is the result (and is where the output goes even when the
 * caller ignores the result), backpressure from the last reader reaches the first writer, an
 * error or a cancel reaches both ends. A push stream piped from or to any other stream is an
 * ordinary stream.
 */

interface PushStreamOptions {
  /**
   * The transformer emits text, and the stream gives it as UTF-8 bytes: everything one write
   * produced, as one chunk (nothing is held past the write that produced it).
   */
  readonly utf8?: boolean;
}

type Emit = (value: unknown) => void;

// Shared by every push stream: the encoder is stateless, and a readable holds no queue of its own.
const UTF8 = new TextEncoder();
const NO_QUEUE: QueuingStrategy<unknown> = { highWaterMark: 0 };

/**
 * One push stream: its transformer, and after fusing, the runs before and after it. It is also
 * its readable's underlying source (`start`, `pull`, `cancel`): no closures to build per stream.
 */
class PushRun implements UnderlyingDefaultSource<unknown> {
  next: PushRun | undefined;
  previous: PushRun | undefined;
  controller!: ReadableStreamDefaultController<unknown>;
  writer: WritableStreamDefaultController | undefined;
  /** Its writable took a chunk: too late to feed it from another run. */
  written = false;
  done = false;
  /** The reader of this run's readable asked for more and has not been given it yet. */
  wanted = false;
  /** A write held back until the last reader asks for more (backpressure). */
  waiting: (() => void) | undefined;
  /** What the transformer emits into: this run's readable, its text batch, or the next run. */
  emit: Emit = () => {};
  private text = "";
  private readonly utf8: boolean;

  constructor(
    readonly transformer: PushTransformer<unknown, unknown>,
    options: PushStreamOptions,
  ) {
    this.utf8 = options.utf8 === true;
    this.wire();
  }

  start(controller: ReadableStreamDefaultController<unknown>): void {
    this.controller = controller;
  }

  pull(): void {
    this.wanted = true;
    const head = this.first();
    const waiting = head.waiting;
    head.waiting = undefined;
    waiting?.();
  }

  cancel(reason: unknown): void {
    this.fail(reason);
  }

  wire(): void {
    const next = this.next;
    if (this.utf8) {
      this.emit = (value) => {
        this.text += value as string;
      };
    } else if (next) {
      this.emit = (value) => next.transformer.push(value, next.emit);
    } else {
      this.emit = (value) => this.enqueue(value);
    }
  }

  private enqueue(value: unknown): void {
    this.wanted = false;
    this.controller.enqueue(value);
  }

  /** Hands the text batched during one write on as one UTF-8 chunk. */
  private settle(): void {
    if (!this.utf8 || this.text === "") return;
    const chunk = UTF8.encode(this.text);
    this.text = "";
    if (this.next) this.next.transformer.push(chunk, this.next.emit);
    else this.enqueue(chunk);
  }

  /** One input to the head of a chain, through every run. */
  write(value: unknown): void {
    this.transformer.push(value, this.emit);
    for (let run: PushRun | undefined = this; run; run = run.next) run.settle();
  }

  /** End of input to the head: each run's end in order, then the last readable closes. */
  end(): void {
    let run: PushRun = this;
    for (;;) {
      run.transformer.end(run.emit);
      run.settle();
      run.done = true;
      if (run.next === undefined) break;
      run = run.next;
    }
    run.controller.close();
  }

  last(): PushRun {
    let run: PushRun = this;
    while (run.next) run = run.next;
    return run;
  }

  first(): PushRun {
    let run: PushRun = this;
    while (run.previous) run = run.previous;
    return run;
  }

  /** An error or a cancel anywhere ends every run: readables error, writables error. */
  fail(reason: unknown): void {
    const head = this.first();
    for (let run: PushRun | undefined = head; run; run = run.next) {
      if (!run.done) run.controller.error(reason);
      run.done = true;
      run.writer?.error(reason);
    }
    const waiting = head.waiting;
    head.waiting = undefined;
    waiting?.();
  }
}

/** The readable of a push stream: its `pipeThrough` fuses with another push stream. */
class PushReadable<O> extends ReadableStream<O> {
  /** Set once, right after construction. */
  run!: PushRun;

  override pipeThrough<T>(
    transform: ReadableWritablePair<T, O>,
    options?: StreamPipeOptions,
  ): ReadableStream<T> {
    const run = this.run;
    const pair = transform instanceof PushPair ? (transform as PushPair<unknown, T>) : undefined;
    const next = pair?.run;
    // Fuse only where a pipe would carry everything the same way: nothing queued or read yet
    // between the two, no pipe options.
    const fusable =
      next !== undefined &&
      options === undefined &&
      !this.locked &&
      !run.done &&
      run.next === undefined &&
      run.controller.desiredSize === 0 &&
      !pair!.writableLocked() &&
      !next.written &&
      next.previous === undefined;
    if (!fusable) return super.pipeThrough(transform, options);
    // Locked as a pipe leaves it; nothing is read through it again.
    this.getReader();
    run.next = next;
    next.previous = run;
    run.wire();
    return transform.readable;
  }
}

/**
 * A push transformer as a TransformStream-shaped pair (`readable`, `writable`) that fuses with the
 * next push stream it is piped through (see above). Backpressure as a TransformStream with the
 * default queues: a write that produced output waits until the last reader asks for more.
 */
export function pushStream<I>(
  transformer: PushTransformer<I, string>,
  options: { readonly utf8: true },
): TransformStream<I, Uint8Array>;
export function pushStream<I, O>(transformer: PushTransformer<I, O>): TransformStream<I, O>;
export function pushStream<I, O>(
  transformer: PushTransformer<I, O>,
  options: PushStreamOptions = {},
): TransformStream<I, O> {
  const run = new PushRun(transformer as PushTransformer<unknown, unknown>, options);
  const readable = new PushReadable<O>(
    run as UnderlyingDefaultSource<O>,
    NO_QUEUE as QueuingStrategy<O>,
  );
  readable.run = run;
  return new PushPair<I, O>(run, readable) as unknown as TransformStream<I, O>;
}

/**
 * `readable` and `writable` of a push stream. The writable is made when first asked for: a stage
 * fused into a chain is fed by the chain's head and never needs one (three fewer streams to
 * build for a four-stage chain); asked for after fusing, it comes locked, as a pipe leaves it.
 */
class PushPair<I, O> {
  private made: WritableStream<I> | undefined;

  constructor(
    readonly run: PushRun,
    readonly readable: ReadableStream<O>,
  ) {}

  get writable(): WritableStream<I> {
    if (this.made === undefined) {
      const run = this.run;
      this.made = writableOf<I>(run);
      if (run.previous !== undefined) this.made.getWriter();
    }
    return this.made;
  }

  /** Whether the writable was made and is locked (a pipe or a writer holds it). */
  writableLocked(): boolean {
    return this.made?.locked ?? false;
  }
}

function writableOf<I>(run: PushRun): WritableStream<I> {
  return new WritableStream<I>({
    start(controller) {
      run.writer = controller;
    },
    write(chunk) {
      run.written = true;
      try {
        run.write(chunk);
      } catch (error) {
        run.fail(error);
        throw error;
      }
      const last = run.last();
      if (last.done || last.wanted) return;
      return new Promise<void>((resolve) => {
        run.waiting = resolve;
      });
    },
    close() {
      try {
        run.end();
      } catch (error) {
        run.fail(error);
        throw error;
      }
    },
    abort(reason) {
      run.fail(reason);
    },
  });
}
