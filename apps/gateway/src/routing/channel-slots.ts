// Connections one channel may hold at once, and a bounded wait for one. An HTTP/1.1 upstream
// serves one call per connection, so a stream holds its slot until its body ends. A call that
// finds every slot taken waits in line for at most the channel's queue time, then gives way:
// the caller tries the next channel, or answers 503 with Retry-After. Nothing waits unbounded.

export interface SlotLimits {
  readonly name: string;
  /** Calls in flight on the channel at once. */
  readonly maxConnections: number;
  /** How long a call waits in line for a slot before it gives way (ms). */
  readonly queueTimeoutMs: number;
}

/** Frees the slot; calling it again does nothing. */
export type Release = () => void;

export type Acquired =
  | { readonly ok: true; readonly release: Release }
  | { readonly ok: false; readonly reason: "queue-timeout" | "aborted" };

interface Waiter {
  grant(release: Release): void;
}

interface Line {
  inUse: number;
  readonly waiting: Waiter[];
}

export class ChannelSlots {
  readonly #lines = new Map<string, Line>();

  #line(name: string): Line {
    let line = this.#lines.get(name);
    if (line === undefined) {
      line = { inUse: 0, waiting: [] };
      this.#lines.set(name, line);
    }
    return line;
  }

  /** A slot on `channel` now, or after a wait in line (first come, first served). */
  acquire(channel: SlotLimits, signal?: AbortSignal): Promise<Acquired> | Acquired {
    const line = this.#line(channel.name);
    if (signal?.aborted === true) return { ok: false, reason: "aborted" };
    if (line.inUse < channel.maxConnections && line.waiting.length === 0) {
      line.inUse++;
      return { ok: true, release: this.#releaser(line) };
    }
    return new Promise<Acquired>((resolve) => {
      const waiter: Waiter = {
        grant: (release) => {
          settle();
          resolve({ ok: true, release });
        },
      };
      const leave = (reason: "queue-timeout" | "aborted") => {
        const at = line.waiting.indexOf(waiter);
        if (at >= 0) line.waiting.splice(at, 1);
        settle();
        resolve({ ok: false, reason });
      };
      const onAbort = () => leave("aborted");
      const timer = setTimeout(() => leave("queue-timeout"), channel.queueTimeoutMs);
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      line.waiting.push(waiter);
    });
  }

  #releaser(line: Line): Release {
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      // The slot passes straight to the next in line, so a newcomer cannot jump the queue.
      const next = line.waiting.shift();
      if (next !== undefined) next.grant(this.#releaser(line));
      else line.inUse--;
    };
  }

  /** Calls waiting for a slot, by channel (the metric). */
  waiting(): Map<string, number> {
    return new Map([...this.#lines].map(([name, line]) => [name, line.waiting.length]));
  }

  /** Slots taken, by channel. */
  inUse(): Map<string, number> {
    return new Map([...this.#lines].map(([name, line]) => [name, line.inUse]));
  }
}
