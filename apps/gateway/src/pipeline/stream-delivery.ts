import type { Delivery } from "../billing/call-account.ts";

/**
 * What a stream delivered, its characters counted only when billing reads them (counting decodes
 * the tap's sample of undecoded deltas; only an estimate needs it). A class: an object literal
 * with a getter costs about a microsecond per stream to create, a class instance next to nothing.
 */
export class StreamDelivery implements Delivery {
  readonly complete: boolean;
  readonly #chars: () => number;

  constructor(complete: boolean, chars: () => number) {
    this.complete = complete;
    this.#chars = chars;
  }

  get outputChars(): number {
    return this.#chars();
  }
}
