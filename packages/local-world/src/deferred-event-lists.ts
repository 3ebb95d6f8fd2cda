import type { DeferredEventList, EventEnvelope } from "./world.js";

type Outcome = { readonly events: EventEnvelope[] } | { readonly error: unknown };

/** One deferred list: reads once, keeps what the read gave (the events or its error). */
class DeferredRead implements DeferredEventList {
  #read: (() => EventEnvelope[]) | undefined;
  #outcome: Outcome | undefined;

  constructor(read: () => EventEnvelope[]) {
    this.#read = read;
  }

  read(): EventEnvelope[] {
    this.settle();
    const outcome = this.#outcome!;
    if ("error" in outcome) throw outcome.error;
    return outcome.events;
  }

  /** Reads now (if not read yet), keeping an error for `read()` to throw. */
  private settle(): void {
    const read = this.#read;
    if (read === undefined) return;
    this.#read = undefined;
    try {
      this.#outcome = { events: read() };
    } catch (error) {
      this.#outcome = { error };
    }
  }
}

/**
 * A `DeferredEventList` over `read` (what `listEvents` would do): run on the first `read()`, its
 * events or its error kept for every later call. For worlds built on this package's blocks.
 */
export function deferredEventList(read: () => EventEnvelope[]): DeferredEventList {
  return new DeferredRead(read);
}
