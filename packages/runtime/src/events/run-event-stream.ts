import type { EventEnvelope } from "@little-stack/local-world";
import type { CommittedRunEvent, RunEvent } from "./run-event.js";

/** The default bound of a run event stream's buffer (events held for a slow consumer). */
export const defaultRunEventBufferSize = 1024;

/** Reads committed events back (the `listEvents` of the run's World). */
export type RunEventSource = {
  listEvents(runId: string, options?: { readonly afterSequence?: number }): Promise<readonly EventEnvelope[]>;
};

/**
 * An async iterable over the events of a run (or of an orchestration's runs) with a bounded
 * buffer. Back-pressure policy — the run is never slowed by its consumer and memory stays bounded:
 *
 * - at most `bufferSize` events are held for a consumer that is behind;
 * - committed events are never dropped: once the buffer is full, a run's further events are not
 *   held but read back from the world's log (`listEvents` after the last one handed over) when the
 *   consumer catches up — the durable log is the overflow buffer. They arrive in sequence order,
 *   exactly once; order across different runs is by run then (within a run it always holds);
 * - ephemeral model deltas are dropped while the consumer is behind (the buffer is full or a run
 *   is being read back); `droppedDeltas` counts them, and the call's committed
 *   `harness.model.responded` carries the whole text anyway.
 *
 * Breaking out of the loop detaches the consumer (nothing more is held); the run goes on.
 */
export class RunEventStream implements AsyncIterable<RunEvent> {
  readonly #source: RunEventSource;
  readonly #bufferSize: number;
  readonly #queue: RunEvent[] = [];
  /** Per run: highest sequence put in the queue (or handed over). */
  readonly #queuedThrough = new Map<string, number>();
  /** Per run: highest sequence committed (reported), held or not. */
  readonly #committedThrough = new Map<string, number>();
  /** Per run: highest sequence reported as replayed (a read-back keeps the flag). */
  readonly #replayedThrough = new Map<string, number>();
  /** Runs whose events past `#queuedThrough` must be read back from the log. */
  readonly #behind = new Set<string>();
  #droppedDeltas = 0;
  #ended = false;
  #failure: { readonly error: unknown } | undefined;
  #detached = false;
  #wake: (() => void) | undefined;
  #iterating = false;

  constructor(options: { readonly source: RunEventSource; readonly bufferSize?: number }) {
    const size = options.bufferSize ?? defaultRunEventBufferSize;
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`bufferSize must be a positive integer, got ${String(size)}`);
    this.#source = options.source;
    this.#bufferSize = size;
  }

  /** Events held in memory right now (never more than the buffer size). */
  get buffered(): number {
    return this.#queue.length;
  }

  /** Deltas dropped so far because the consumer was behind. */
  get droppedDeltas(): number {
    return this.#droppedDeltas;
  }

  /** The listener to give the run (`onEvent`). */
  readonly push = (event: RunEvent): void => {
    if (this.#detached || this.#ended) return;
    if (event.ephemeral) {
      if (this.#queue.length >= this.#bufferSize || this.#behind.size > 0) this.#droppedDeltas += 1;
      else this.#enqueue(event);
      return;
    }
    const runId = event.runId;
    if (event.sequence <= (this.#queuedThrough.get(runId) ?? 0)) return;
    this.#committedThrough.set(runId, Math.max(event.sequence, this.#committedThrough.get(runId) ?? 0));
    if (event.replayed) this.#replayedThrough.set(runId, Math.max(event.sequence, this.#replayedThrough.get(runId) ?? 0));
    if (this.#behind.has(runId) || this.#queue.length >= this.#bufferSize) {
      this.#behind.add(runId);
      this.#wakeUp();
      return;
    }
    this.#queuedThrough.set(runId, event.sequence);
    this.#enqueue(event);
  };

  /** No more events will be pushed: the iteration ends once everything is handed over. */
  end(failure?: { readonly error: unknown }): void {
    if (this.#ended) return;
    this.#ended = true;
    if (failure !== undefined) this.#failure = failure;
    this.#wakeUp();
  }

  [Symbol.asyncIterator](): AsyncIterator<RunEvent> {
    if (this.#iterating) throw new Error("A run's event stream can be iterated once.");
    this.#iterating = true;
    return {
      next: () => this.#next(),
      return: async () => {
        this.#detach();
        return { done: true, value: undefined };
      },
    };
  }

  async #next(): Promise<IteratorResult<RunEvent>> {
    for (;;) {
      const event = this.#queue.shift();
      if (event !== undefined) return { done: false, value: event };
      if (this.#behind.size > 0) {
        await this.#readBack();
        continue;
      }
      if (this.#ended) {
        this.#detach();
        if (this.#failure !== undefined) throw this.#failure.error;
        return { done: true, value: undefined };
      }
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  /** Reads the first run that is behind back from the log, at most a buffer's worth at a time. */
  async #readBack(): Promise<void> {
    const runId = this.#behind.values().next().value as string;
    const after = this.#queuedThrough.get(runId) ?? 0;
    const stored = await this.#source.listEvents(runId, { afterSequence: after });
    const room = Math.max(1, this.#bufferSize - this.#queue.length);
    const taken = stored.slice(0, room);
    const replayedThrough = this.#replayedThrough.get(runId) ?? 0;
    let through = this.#queuedThrough.get(runId) ?? 0;
    for (const envelope of taken) {
      if (envelope.sequence <= through) continue;
      through = envelope.sequence;
      // Object.assign, not a literal opening with a spread (slow on Node 20; README, "No literal opening with a spread").
      const event: CommittedRunEvent = Object.assign({}, envelope, { ephemeral: false as const, replayed: envelope.sequence <= replayedThrough });
      this.#queue.push(event);
    }
    this.#queuedThrough.set(runId, through);
    // Caught up once everything reported (and everything the log had) is handed over.
    const committed = Math.max(this.#committedThrough.get(runId) ?? 0, stored.at(-1)?.sequence ?? 0);
    this.#committedThrough.set(runId, committed);
    if (through >= committed) this.#behind.delete(runId);
  }

  #enqueue(event: RunEvent): void {
    this.#queue.push(event);
    this.#wakeUp();
  }

  #wakeUp(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  #detach(): void {
    this.#detached = true;
    this.#queue.length = 0;
    this.#behind.clear();
  }
}
