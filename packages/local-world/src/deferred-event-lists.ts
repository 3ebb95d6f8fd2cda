import type { DeferredEventList, EventEnvelope } from "./world.js";

type Outcome = { readonly events: EventEnvelope[] } | { readonly error: unknown };

/** One deferred list: reads once, keeps what the read gave (the events or its error). */
class DeferredRead implements DeferredEventList {
  #read: (() => EventEnvelope[]) | undefined;
  #outcome: Outcome | undefined;
  readonly #settled: ((entry: DeferredRead) => void) | undefined;

  constructor(read: () => EventEnvelope[], settled?: (entry: DeferredRead) => void) {
    this.#read = read;
    this.#settled = settled;
  }

  read(): EventEnvelope[] {
    this.settle();
    const outcome = this.#outcome!;
    if ("error" in outcome) throw outcome.error;
    return outcome.events;
  }

  /** Reads now (if not read yet), keeping an error for `read()` to throw. */
  settle(): void {
    const read = this.#read;
    if (read === undefined) return;
    this.#read = undefined;
    try {
      this.#outcome = { events: read() };
    } catch (error) {
      this.#outcome = { error };
    }
    this.#settled?.(this);
  }
}

/**
 * A `DeferredEventList` over `read` (what `listEvents` would do): run on the first `read()`, its
 * events or its error kept for every later call. For worlds built on this package's blocks.
 */
export function deferredEventList(read: () => EventEnvelope[]): DeferredEventList {
  return new DeferredRead(read);
}

/**
 * The deferred lists a world handed out that nobody has read yet, so that closing the world reads
 * them first: a result obtained before `close()` keeps its events readable after it. Held weakly,
 * so a result dropped unread costs nothing at close (and is forgotten when it is collected).
 */
export class DeferredEventLists {
  readonly #refs = new Set<WeakRef<DeferredRead>>();
  readonly #refOf = new WeakMap<DeferredRead, WeakRef<DeferredRead>>();
  readonly #collected = new FinalizationRegistry<WeakRef<DeferredRead>>((ref) => this.#refs.delete(ref));

  /** A list that runs `read` on its first `read()` (or at `settleAll`). */
  defer(read: () => EventEnvelope[]): DeferredEventList {
    const entry = new DeferredRead(read, (settled) => this.#forget(settled));
    const ref = new WeakRef(entry);
    this.#refs.add(ref);
    this.#refOf.set(entry, ref);
    this.#collected.register(entry, ref, entry);
    return entry;
  }

  /** Reads every list still unread and alive (before the storage closes). */
  settleAll(): void {
    for (const ref of [...this.#refs]) ref.deref()?.settle();
    this.#refs.clear();
  }

  #forget(entry: DeferredRead): void {
    this.#collected.unregister(entry);
    const ref = this.#refOf.get(entry);
    if (ref !== undefined) this.#refs.delete(ref);
  }
}
