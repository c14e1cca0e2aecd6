import type { RedisLink } from "./redis-link.ts";

/** What one instance tells the others to forget. */
export type Invalidation = { readonly kind: "token"; readonly keyHash: string };

const parseInvalidation = (text: string): Invalidation | undefined => {
  try {
    const value = JSON.parse(text) as Partial<Invalidation>;
    return value.kind === "token" && typeof value.keyHash === "string"
      ? { kind: "token", keyHash: value.keyHash }
      : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Cross-instance cache invalidation over Redis pub/sub: a token changed through `/api/*` on one
 * instance is forgotten by every other at once, instead of after their token ttl.
 */
export class InvalidationBus {
  readonly #link: RedisLink;
  readonly #channel: string;
  readonly #onError: (error: unknown) => void;

  constructor(link: RedisLink, onError: (error: unknown) => void = () => {}) {
    this.#link = link;
    this.#channel = link.key("invalidate");
    this.#onError = onError;
  }

  /** Delivers every invalidation published by any instance (this one included). */
  async subscribe(handle: (message: Invalidation) => void): Promise<void> {
    const subscriber = this.#link.subscriber();
    subscriber.on("message", (channel: string, text: string) => {
      if (channel !== this.#channel) return;
      const message = parseInvalidation(text);
      if (message !== undefined) handle(message);
    });
    await subscriber.subscribe(this.#channel);
  }

  publish(message: Invalidation): void {
    this.#link.commands.publish(this.#channel, JSON.stringify(message)).catch(this.#onError);
  }
}
