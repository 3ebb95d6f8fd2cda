import { canonicalSnapshotOf, CanonicalText } from "@little-stack/canonical";
import { redoableHarnessEventTypes, type HarnessEventEnvelope, type HarnessEventSink, type ModelDelta } from "@little-stack/harness";
import { RunLogCorruptError } from "../errors/run-integrity-errors.js";
import { isoNow, type World } from "@little-stack/local-world";
import type { EventRecord, RuntimeEvent } from "../events/runtime-event-types.js";
import type { RunEventDispatcher } from "../events/run-event-dispatcher.js";
import type { RunStateFolder } from "../run-state/run-state-folder.js";
import { CommittedEventWindow } from "./committed-event-window.js";
import { heldEnvelope, heldInput, type AnyEvent } from "./held-events.js";
import { historyUpTo, type RunHistory } from "./run-history.js";


/** Announcements, not results: they may wait for the next boundary's transaction. */
const deferrableTypes: ReadonlySet<string> = new Set([
  "StepScheduled",
  "StepAttemptStarted",
  "ParallelGroupStarted",
  "ParallelBranchScheduled",
  // Derived from committed step results (a resume recomputes them from those), so they can wait.
  "ParallelBranchCompleted",
  "ParallelBranchFailed",
  "ParallelGroupCompleted",
  ...redoableHarnessEventTypes,
]);

/**
 * What a batch may consist of to be appended `durable: false` (visible at once, made durable by the
 * run's next durable append): announcements, and the run's start, which a resume writes again
 * if it was lost. Every result boundary is durable when its append returns.
 */
const redoableTypes: ReadonlySet<string> = new Set([...deferrableTypes, "RunStarted", "WorkflowVersionRegistered"]);

/**
 * The results of a direct-execute step's session (tool.call, decision): nothing reads them before
 * the step's `StepCompleted`/`StepFailed`, which commits them in the same transaction. A crash
 * before that commit re-executes the step's single in-flight call under the same call id, which
 * the durability contract permits. Model responses are never held (a model call is not re-paid).
 */
const directStepResultTypes: ReadonlySet<string> = new Set([
  "harness.tool_call.succeeded",
  "harness.tool_call.failed",
  "harness.execute_step.succeeded",
  "harness.session.failed",
]);

/**
 * Events whose payloads the folder reads only primitives of (step path, id, attempt; a tool
 * call's id and `caller`): it may read them from the object they were built from, which was just
 * canonicalized (so is plain JSON) and from which it keeps no object.
 */
const builtPayloadTypes: ReadonlySet<string> = new Set([
  "StepScheduled",
  "StepAttemptStarted",
  "harness.tool_call.started",
  "harness.tool_call.succeeded",
  "harness.tool_call.failed",
]);

/**
 * A `StepCompleted` whose output the folder may keep as built: absent (an artifact), a primitive,
 * or a canonical snapshot (a tool's result is one) — frozen, so it is what the text says, and no
 * one can change it through the run state. Other outputs (a fan-in's array, a model's answer) are
 * read from a parse of the stored text, as before.
 */
function outputIsRecorded(event: AnyEvent): boolean {
  if (event.type !== "StepCompleted") return false;
  const output = (event.payload as { output?: unknown }).output;
  return typeof output !== "object" || output === null || canonicalSnapshotOf(output) !== undefined;
}

/** Whether `event` settles the tool call `started` announced (its `succeeded`/`failed`, same call id). */
function settles(event: AnyEvent, started: AnyEvent): boolean {
  return (
    (event.type === "harness.tool_call.succeeded" || event.type === "harness.tool_call.failed") &&
    (event.payload as { callId?: unknown }).callId === (started.payload as { callId?: unknown }).callId
  );
}

/** A batch that may wait for the next boundary: announcements only (and the results `hold` allows). */
function isHoldable(events: readonly AnyEvent[], hold: ReadonlySet<string> | undefined): boolean {
  if (events.length === 0) return false;
  for (const event of events) if (!deferrableTypes.has(event.type) && hold?.has(event.type) !== true) return false;
  return true;
}

/** A model response or failure the harness recorded without the step path it belongs to. */
function needsStepPathStamp(event: { readonly type: string; readonly payload: unknown }): boolean {
  return (event.type === "harness.model.responded" || event.type === "harness.model.failed") && (event.payload as { stepPath?: unknown }).stepPath === undefined;
}

/**
 * The one writer of a run's log in this process: appends go to the world one batch at a time
 * (so sequences reach the folder in order) and every stored event is folded into the live state.
 */
export class RunLog {
  private tail: Promise<unknown> = Promise.resolve();
  private sealed = false;
  private harnessSealed = false;
  private pending: EventRecord[] = [];
  /** The sealed canonical text of each held event's payload (same index), computed when it was deferred. */
  private pendingTexts: CanonicalText[] = [];
  private readonly queue: {
    readonly events: readonly AnyEvent[];
    /** Result types this caller may also hold (a direct-execute step's session results). */
    readonly hold: ReadonlySet<string> | undefined;
    resolve(stored: readonly EventRecord[]): void;
    reject(error: unknown): void;
  }[] = [];
  private draining = false;
  /** Drains and flushes queued on `tail` or running: while any is, sequences are assigned there, so an announcement waits its turn. */
  private busy = 0;
  /** Set when a commit failed: the folder may be ahead of the store, so nothing more is written. */
  private broken: { readonly error: unknown } | undefined;
  /**
   * A direct-execute step's `harness.tool_call.started`, by step path, kept out of the log until
   * the next event of that step's session: dropped when that event is the call's own
   * `succeeded`/`failed` (committed in the same transaction, it repeats every field of the
   * announcement), else logged just before it (`takeParkedCall` for a step that ends without one).
   */
  private readonly parkedCalls = new Map<string, AnyEvent>();

  /**
   * The run's committed events this process keeps in memory: the whole log while it is short (or
   * when the world cannot read it back lazily), else the tail from the oldest attempt in flight.
   */
  private readonly committed: CommittedEventWindow;

  constructor(
    readonly world: World,
    readonly runId: string,
    readonly folder: RunStateFolder,
    /** Who watches the run live (`onEvent`): told of every commit, in order, as it happens. */
    private readonly watcher?: RunEventDispatcher,
  ) {
    this.committed = new CommittedEventWindow(typeof world.deferListEvents !== "function");
  }

  /**
   * Reads the run's stored events into the folder (once, before the first append). `builtPayloadOf`
   * may name, for a stored event, the object its text was made from, proven equal: folded instead
   * of a parse of the text.
   */
  async open(builtPayloadOf?: (event: EventRecord) => object | undefined): Promise<void> {
    const events = (await this.world.listEvents(this.runId)) as readonly EventRecord[];
    for (const event of events) this.folder.apply(event, builtPayloadOf?.(event));
    this.committed.push(events);
    // What a resumed (or finished) run has recorded reaches the watcher first, flagged.
    this.watcher?.committed(events, { replayed: true });
  }

  /**
   * The run's committed events so far, for its result (held announcements are not in it until
   * committed): the array in memory while the log holds all of them, else the world's log read
   * on demand and checked to end in the last event committed here.
   */
  async history(): Promise<RunHistory> {
    if (this.committed.complete) return { events: this.committed.all() };
    const last = this.committed.last()!;
    const deferred = await this.world.deferListEvents!(this.runId);
    return { read: () => historyUpTo({ runId: this.runId, deferred, anchors: [last] }) };
  }

  /**
   * Keeps the events after `afterSequence` (a step attempt's `StepAttemptStarted`) in memory
   * until the returned release is called, so the attempt's sessions list them from memory.
   */
  holdFrom(afterSequence: number): () => void {
    return this.committed.hold(afterSequence);
  }

  /** The last committed event of `type` that `matches` (read from the world when memory no longer holds it). */
  async lastCommitted(type: string, matches: (event: EventRecord) => boolean): Promise<EventRecord | undefined> {
    await this.tail;
    const recent = this.committed.after(0, (event) => event.type === type && matches(event)).at(-1);
    if (recent !== undefined || this.committed.complete) return recent;
    // The world holds every committed event, so its list of that type is the whole answer.
    const committed = (await this.world.listEvents(this.runId, { typePrefix: type })) as readonly EventRecord[];
    return committed.filter((event) => event.type === type && matches(event)).at(-1);
  }

  append(events: readonly RuntimeEvent[]): Promise<readonly EventRecord[]> {
    return this.appendAny(events);
  }

  /** After the run's final event: a harness still running after an abort can append nothing more. */
  seal(): void {
    this.sealed = true;
  }

  /**
   * Called when the run is aborted: a harness that is still winding down may not append after
   * the runtime records the failure, so its further events are refused (what it had in flight
   * stays in flight in the log, as after a kill).
   */
  sealHarness(): void {
    this.harnessSealed = true;
  }

  /**
   * Appends events. Events that are not result boundaries (architecture.md, durability contract)
   * are held in memory and committed in the same transaction as the next boundary: losing them
   * in a crash only means redoing what they announced, under the same deterministic ids. Their
   * sequences are assigned here (this log is the run's only writer, under the run lock) and
   * checked against the world's when they are committed.
   */
  appendAny(events: readonly AnyEvent[], options?: { readonly hold?: ReadonlySet<string> }): Promise<readonly EventRecord[]> {
    if (this.sealed) return Promise.reject(new Error(`The log of run ${this.runId} is closed: the run already ended.`));
    if (this.broken !== undefined) return Promise.reject(this.broken.error);
    // An announcement made while nothing is queued or committing is held at once: the drain
    // would do exactly this a few microtasks later, and most of a step's appends are these.
    if (this.busy === 0 && isHoldable(events, options?.hold)) {
      try {
        return Promise.resolve(this.defer(events));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise<readonly EventRecord[]>((resolve, reject) => {
      this.queue.push({ events, hold: options?.hold, resolve, reject });
      if (!this.draining) {
        this.draining = true;
        this.busy += 1;
        this.tail = this.tail.then(() => this.drain()).catch(() => undefined);
      }
    });
  }

  /** Commits whatever is held (before reading the log back). */
  flush(): Promise<unknown> {
    this.busy += 1;
    const next = this.tail.then(async () => {
      try {
        return this.pending.length > 0 ? await this.commit([]) : [];
      } finally {
        this.busy -= 1;
      }
    });
    this.tail = next.catch(() => undefined);
    return next;
  }

  /**
   * Group commit: everything queued while the previous transaction ran goes out together.
   * Announcements queued before the first boundary are held; from the first boundary on, the
   * queued batches (and everything held) share one transaction, in queue order.
   */
  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0);
        let first = 0;
        for (; first < batch.length; first += 1) {
          const item = batch[first]!;
          if (!isHoldable(item.events, item.hold)) break;
          try {
            item.resolve(this.defer(item.events));
          } catch (error) {
            item.reject(error);
          }
        }
        const committing = batch.slice(first);
        if (committing.length === 0) continue;
        try {
          const stored = await this.commit(committing.flatMap((item) => item.events));
          let offset = 0;
          for (const item of committing) {
            item.resolve(stored.slice(offset, offset + item.events.length));
            offset += item.events.length;
          }
        } catch (error) {
          // Batches of other callers shared the failed transaction: none of it can be trusted.
          if (committing.length > 1 && this.broken === undefined) this.broken = { error };
          for (const item of committing) item.reject(error);
        }
      }
    } finally {
      this.draining = false;
      this.busy -= 1;
    }
  }

  private defer(events: readonly AnyEvent[]): readonly EventRecord[] {
    const recordedAt = isoNow();
    // Canonicalize every payload before assigning anything, so a bad one leaves the log as it was.
    const texts = events.map((event) => (CanonicalText.isSealed(event.canonicalPayload) ? event.canonicalPayload : CanonicalText.of(event.payload)));
    const envelopes = events.map((event, index) => heldEnvelope({ runId: this.runId, sequence: this.folder.eventCount + index + 1, type: event.type, recordedAt, text: texts[index]! }));
    // The folder reads a step announcement's fields from the object it was built from, not from
    // a parse of its text (one JSON.parse per announcement, two per step).
    for (let index = 0; index < envelopes.length; index += 1) {
      const event = events[index]!;
      this.folder.apply(envelopes[index]!, builtPayloadTypes.has(event.type) ? event.payload : undefined);
    }
    this.pending.push(...envelopes);
    this.pendingTexts.push(...texts);
    return envelopes;
  }

  private async commit(events: readonly AnyEvent[]): Promise<readonly EventRecord[]> {
    if (this.broken !== undefined) throw this.broken.error;
    const held = this.pending;
    const heldTexts = this.pendingTexts;
    this.pending = [];
    this.pendingTexts = [];
    let stored: readonly EventRecord[];
    try {
      // Held events go with the text they were identified by: the world stores it as is. The
      // payload is a getter, so a world that takes the sealed text never parses it back.
      const heldInputs = held.map((event, index) => heldInput(event, heldTexts[index]!));
      const batch = [...heldInputs, ...events];
      // A run's start (a flush of announcements too) need not cost a sync of its own: the first
      // result boundary's sync makes it durable with everything before it.
      const redoable = batch.every((event) => redoableTypes.has(event.type));
      stored = (await this.world.appendEvents(this.runId, batch, redoable ? { durable: false } : undefined)) as readonly EventRecord[];
    } catch (error) {
      if (held.length > 0) this.broken = { error };
      throw error;
    }
    if (stored.length > 0 && stored[0]!.sequence !== this.committed.count + 1) {
      this.broken = { error: new RunLogCorruptError({ runId: this.runId, sequence: stored[0]!.sequence, problem: `another writer appended to the run (expected sequence ${this.committed.count + 1})` }) };
      throw this.broken.error;
    }
    this.committed.push(stored);
    for (let index = 0; index < held.length; index += 1) {
      // The world stored the held texts as given, so equal sequences mean equal events (and ids).
      if (stored[index]!.sequence !== held[index]!.sequence) {
        throw new RunLogCorruptError({ runId: this.runId, sequence: stored[index]!.sequence, problem: `another writer appended to the run (expected sequence ${held[index]!.sequence})` });
      }
    }
    const fresh = stored.slice(held.length);
    for (let index = 0; index < fresh.length; index += 1) {
      const built = events[index]!;
      this.folder.apply(fresh[index]!, builtPayloadTypes.has(built.type) || outputIsRecorded(built) ? built.payload : undefined);
    }
    // Held events and this batch were committed together, in sequence order: all of them are news.
    this.watcher?.committed(stored, { replayed: false });
    return fresh;
  }

  /**
   * A direct step's session appends `events`: what to log of them. A lone tool call announcement
   * is parked (nothing to log yet); the next append logs the parked one before its own events,
   * unless it opens with that call's result, which makes the announcement redundant.
   */
  private parkStartedCall(stepPath: string, events: readonly AnyEvent[]): readonly AnyEvent[] {
    const parked = this.parkedCalls.get(stepPath);
    if (parked === undefined) {
      if (events.length !== 1 || events[0]!.type !== "harness.tool_call.started") return events;
      this.parkedCalls.set(stepPath, events[0]!);
      return [];
    }
    this.parkedCalls.delete(stepPath);
    if (events.length > 0 && settles(events[0]!, parked)) return events;
    return [parked, ...events];
  }

  /**
   * The tool call announcement a direct step's session parked and never settled (its attempt
   * failed, was cancelled or timed out with the call in flight), to be logged before the
   * attempt's end so the call still reads as started; empty when there is none.
   */
  takeParkedCall(stepPath: string): readonly AnyEvent[] {
    const parked = this.parkedCalls.get(stepPath);
    if (parked === undefined) return [];
    this.parkedCalls.delete(stepPath);
    return [parked];
  }

  /**
   * The World → harness sink adapter for one step attempt. Appends go through this log (so the
   * run state sees model usage as it happens) with the step path stamped on model responses the
   * harness left unstamped; `list` starts after the attempt's `StepAttemptStarted`, because a
   * session's events are always written after its attempt started — this keeps opening a
   * session O(events of this attempt), not O(run).
   */
  harnessSink(options: { readonly stepPath: string; readonly afterSequence: number; readonly directStep?: boolean }): HarnessEventSink {
    const { stepPath, afterSequence } = options;
    const hold = options.directStep === true ? directStepResultTypes : undefined;
    return {
      runId: this.runId,
      append: (events) => {
        if (this.harnessSealed) return Promise.reject(new Error(`The run ${this.runId} was aborted: harness events are no longer recorded.`));
        let stamped: readonly AnyEvent[] = events.some(needsStepPathStamp)
          ? events.map((event) => (needsStepPathStamp(event) ? { type: event.type, payload: { ...event.payload, stepPath } } : event))
          : events;
        if (hold === undefined) return this.appendAny(stamped) as Promise<readonly HarnessEventEnvelope[]>;
        stamped = this.parkStartedCall(stepPath, stamped);
        // A parked announcement is not stored: there is no envelope to give back for it.
        if (stamped.length === 0) return Promise.resolve([]);
        return this.appendAny(stamped, { hold }) as Promise<readonly HarnessEventEnvelope[]>;
      },
      list: async (listOptions) => {
        // Served from memory while it holds the attempt's events (an attempt holds them from its
        // start, `holdFrom`): this process is the run's only writer, so the events committed and
        // those held are all there is. (A commit in flight carries other sessions' events only: a
        // session's own earlier appends were awaited before it could be opened again.) Reading
        // must not force a commit either.
        await this.tail;
        const after = Math.max(afterSequence, listOptions?.afterSequence ?? 0);
        const isHarness = (event: EventRecord): boolean => event.type.startsWith("harness.");
        let result: EventRecord[];
        if (this.committed.holdsAfter(after)) result = this.committed.after(after, isHarness);
        else {
          // Older than memory (a resumed attempt, a session listing after its attempt ended): the
          // committed part up to the window from the world, the rest from memory.
          const older = await this.committed.readBelow(async (upTo) => ((await this.world.listEvents(this.runId, { afterSequence: after, typePrefix: "harness." })) as readonly EventRecord[]).filter((event) => event.sequence <= upTo));
          result = [...older.value, ...this.committed.after(older.upTo, isHarness)];
        }
        const lastStored = this.committed.count;
        for (const event of this.pending) {
          if (event.sequence > after && event.sequence > lastStored && isHarness(event)) result.push(event);
        }
        return result as unknown as HarnessEventEnvelope[];
      },
      ...(this.watcher === undefined ? {} : { onModelDelta: (delta: ModelDelta) => this.watcher?.modelDelta(this.runId, delta) }),
    };
  }
}
