import type { StreamEvent } from "@interlingua/core-types";

type Emit = (event: StreamEvent) => void;

/**
 * A messages client never sees two content blocks open at once, yet upstreams interleave
 * parallel tool calls (OpenAI streams fragments of several calls in turn). This stage lets the
 * events of one part (of choice 0) through at a time: events of other parts wait, in arrival
 * order, until the open part ends, then go out whole or up to where they are. Nothing is lost:
 * whatever still waits at the end of input goes out then. Events without a part pass at once.
 */
export class PartSerializer {
  private active: number | undefined;
  private readonly waiting = new Map<number, StreamEvent[]>();
  private readonly ended = new Set<number>();

  push(event: StreamEvent, emit: Emit): void {
    if (!("index" in event) || (event.alternative ?? 0) !== 0) {
      emit(event);
      return;
    }
    const index = event.index;
    // Arguments or citations after their part ended have no block to go to: the encoder reports
    // them.
    if (
      this.ended.has(index) &&
      (event.type === "tool-arguments-delta" ||
        event.type === "citation" ||
        event.type === "part-end")
    ) {
      emit(event);
      return;
    }
    const queued = this.waiting.get(index);
    if (queued !== undefined) {
      queued.push(event);
      return;
    }
    this.active ??= index;
    if (index !== this.active) {
      this.waiting.set(index, [event]);
      return;
    }
    emit(event);
    if (event.type === "part-end") {
      this.ended.add(index);
      this.active = undefined;
      this.drain(emit);
    }
  }

  end(emit: Emit): void {
    this.active = undefined;
    for (const events of this.waiting.values()) for (const event of events) emit(event);
    this.waiting.clear();
  }

  /** The parts that waited, in order, until one of them is still open. */
  private drain(emit: Emit): void {
    for (const [index, events] of this.waiting) {
      this.waiting.delete(index);
      for (const event of events) emit(event);
      if (events.some((event) => event.type === "part-end")) this.ended.add(index);
      else {
        this.active = index;
        return;
      }
    }
  }
}
