import { redoableHarnessEventTypes } from "@little-stack/harness";
import type { AppendEventsOptions, EventEnvelope, EventInput, ListEventsOptions, World } from "@little-stack/local-world";

/** What the compile reads and writes of its run's log: the two event methods of a World. */
export type CompileEventStore = Pick<World, "appendEvents" | "listEvents">;

/**
 * The compile's writes to its run's log, with announcements held for the next write. An event
 * that nothing acts on before the compile writes again (`OrchestrationRequested`, a verdict that
 * a plan is valid) is committed in the same transaction as the next event: one commit — one
 * fdatasync in strict mode — fewer each. architecture.md allows it: events between two result
 * boundaries may be committed together, and a kill before the next write loses only what a
 * resumed compile writes again.
 *
 * Reads stay exact: a read that could return a held event commits the held events first (a
 * read of `harness.*` events, as the planner session makes, does not need to).
 *
 * A batch of events a resumed compile would write again anyway is appended `durable: false` (see
 * `redoableTypes`): the model responses and tool results it derives from are always durable.
 */
export class CompileAppends implements CompileEventStore {
  readonly #world: World;
  readonly #runId: string;
  #held: EventInput[] = [];

  constructor(world: World, runId: string) {
    this.#world = world;
    this.#runId = runId;
  }

  /** Keeps `events` for the next append (or `flush()`), in order. */
  hold(events: readonly EventInput[]): void {
    this.#held.push(...events);
  }

  async appendEvents(runId: string, events: EventInput | readonly EventInput[], options?: AppendEventsOptions): Promise<EventEnvelope[]> {
    const given: readonly EventInput[] = isEventList(events) ? events : [events];
    if (runId !== this.#runId) return this.#world.appendEvents(runId, given, options);
    if (this.#held.length === 0) return this.#world.appendEvents(runId, given, withDurability(given, options));
    const held = this.#held;
    this.#held = [];
    try {
      const batch = [...held, ...given];
      const stored = await this.#world.appendEvents(runId, batch, withDurability(batch, options));
      return stored.slice(held.length);
    } catch (error) {
      // Nothing of the batch was stored (an append is atomic): the held events wait again.
      this.#held = [...held, ...this.#held];
      throw error;
    }
  }

  async listEvents(runId: string, options?: ListEventsOptions): Promise<EventEnvelope[]> {
    if (runId === this.#runId && this.#held.some((event) => options?.typePrefix === undefined || event.type.startsWith(options.typePrefix))) await this.flush();
    return this.#world.listEvents(runId, options);
  }

  /** Commits what is held, if anything. */
  async flush(): Promise<void> {
    if (this.#held.length > 0) await this.appendEvents(this.#runId, []);
  }
}

/**
 * What a crash may lose without harm: announcements, and what a resumed compile writes again
 * from durable records — the planner session's start and end (its model responses and tool
 * results are durable), the verdicts on its plans, the version it registers. Such a batch is
 * appended `durable: false`: visible at once, made durable by the run's next durable append (in
 * strict mode one fdatasync fewer each; a fixed plan's compile then syncs nothing).
 */
const redoableTypes: ReadonlySet<string> = new Set([
  "OrchestrationRequested",
  "WorkflowValidationSucceeded",
  "WorkflowValidationFailed",
  "WorkflowVersionRegistered",
  ...redoableHarnessEventTypes,
]);

function withDurability(batch: readonly EventInput[], options: AppendEventsOptions | undefined): AppendEventsOptions | undefined {
  if (options?.durable !== undefined || !batch.every((event) => redoableTypes.has(event.type))) return options;
  return { ...options, durable: false };
}

function isEventList(events: EventInput | readonly EventInput[]): events is readonly EventInput[] {
  return Array.isArray(events);
}
