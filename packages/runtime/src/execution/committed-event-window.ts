import type { EventRecord } from "../events/runtime-event-types.js";

/**
 * Trimming waits until this many events could go, so a trim copies a few dozen slots. Small on
 * purpose: V8 pretenures an allocation site (allocates its objects straight into the old
 * generation from then on) when at a scavenge at least 85% of the 100+ objects it made since the
 * last one are still alive. With 128 (up to 258 envelopes alive, ~36 steps of a chain) the
 * envelope sites were pretenured in about two runs of five, by the chance timing of a scavenge just
 * after they were optimized; from then on every envelope was old garbage whose references kept its
 * id, text and parsed payload alive through scavenges, and a 10,000-step run promoted 46 instead
 * of 21 MB (peak RSS 210–236 against 184–207 MB). With 16, fewer than 40 events are in memory
 * while one attempt is in flight: no site can reach the ratio (0 of 16 runs in the high mode).
 */
export const trimBatch = 16;

/**
 * The run's committed events this process still keeps in memory: the tail of the log, from the
 * oldest step attempt still in flight on. Its sessions read their own events back from here
 * (`RunLog.harnessSink().list`); everything older is in the world, which is read when something
 * asks for it (the run's result, a resumed step's recorded failure).
 *
 * Why not keep the whole log: a 10,000-step run's 70,000 envelopes were half its live heap, and
 * V8 promotes each one to the old generation (they outlive many scavenges), where nothing
 * collects them during the run — peak RSS grew ~15 KB per step. A world that cannot read a log
 * back lazily (`deferListEvents`) gets `keepAll`: the result is then built from memory, as before.
 */
export class CommittedEventWindow {
  /** `events[i].sequence === base + i + 1`: sequences are dense from 1. */
  private events: EventRecord[] = [];
  private base = 0;
  /** The `afterSequence` of each attempt in flight (how many attempts hold each). */
  private readonly holds = new Map<number, number>();
  /** World reads in progress that rely on the window not moving (see `readAfter`). */
  private readsInFlight = 0;

  constructor(private readonly keepAll: boolean) {}

  /** Events in the store (the last committed sequence). */
  get count(): number {
    return this.base + this.events.length;
  }

  /** How many committed events are in memory now. */
  get size(): number {
    return this.events.length;
  }

  /** True while every committed event is in memory (nothing was ever trimmed). */
  get complete(): boolean {
    return this.base === 0;
  }

  /** The last committed event, when there is one. */
  last(): EventRecord | undefined {
    return this.events.at(-1);
  }

  /** Every committed event, when `complete` (the array itself: it only grows). */
  all(): readonly EventRecord[] {
    if (this.base !== 0) throw new Error("the event window was trimmed: read the log from the world");
    return this.events;
  }

  push(events: readonly EventRecord[]): void {
    for (const event of events) this.events.push(event);
    this.trim();
  }

  /**
   * Keeps every event after `afterSequence` in memory until the returned release is called: what
   * a step attempt's sessions will list. A list older than every hold is still answered, from
   * the world.
   */
  hold(afterSequence: number): () => void {
    this.holds.set(afterSequence, (this.holds.get(afterSequence) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.holds.get(afterSequence)! - 1;
      if (left === 0) this.holds.delete(afterSequence);
      else this.holds.set(afterSequence, left);
    };
  }

  /** Whether every committed event after `afterSequence` is in memory. */
  holdsAfter(afterSequence: number): boolean {
    return afterSequence >= this.base;
  }

  /** The committed events after `afterSequence` (which `holdsAfter`), in order, that `keep`. */
  after(afterSequence: number, keep: (event: EventRecord) => boolean): EventRecord[] {
    const result: EventRecord[] = [];
    for (let index = Math.max(0, afterSequence - this.base); index < this.events.length; index += 1) {
      const event = this.events[index]!;
      if (keep(event)) result.push(event);
    }
    return result;
  }

  /**
   * Runs `read` (a world read of events up to the current `base`) with trimming suspended, then
   * returns the base it read up to: the caller takes the world's events up to it and this
   * window's after it, with no gap whatever was committed meanwhile.
   */
  async readBelow<T>(read: (upTo: number) => Promise<T>): Promise<{ readonly value: T; readonly upTo: number }> {
    const upTo = this.base;
    this.readsInFlight += 1;
    try {
      return { value: await read(upTo), upTo };
    } finally {
      this.readsInFlight -= 1;
    }
  }

  private trim(): void {
    if (this.keepAll || this.readsInFlight > 0 || this.events.length < trimBatch * 2) return;
    // Everything up to the oldest hold can go, but the last event stays (a history is checked against it).
    let keepAfter = this.count - 1;
    for (const afterSequence of this.holds.keys()) if (afterSequence < keepAfter) keepAfter = afterSequence;
    const drop = keepAfter - this.base;
    if (drop < trimBatch) return;
    this.events = this.events.slice(drop);
    this.base = keepAfter;
  }
}
