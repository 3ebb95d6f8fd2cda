import type { EventEnvelope } from "@little-stack/local-world";
import type { ModelDelta } from "@little-stack/harness";
import { modelDeltaEvent, type RunEvent, type RunEventListener } from "./run-event.js";

/**
 * Delivers the events of one or more runs to a listener exactly once each, in sequence order per
 * run, however many writers of this process report them (the compiler's appends, the runtime's
 * log, a resumed run's replay read at open): an envelope whose sequence was delivered already is
 * skipped. Sequences are dense and each run has one writer at a time, so reports of a run arrive in
 * order; the check only removes the overlap of a replay read twice.
 */
export class RunEventDispatcher {
  readonly #listener: RunEventListener;
  readonly #delivered = new Map<string, number>();
  #warned = false;

  constructor(listener: RunEventListener) {
    this.#listener = listener;
  }

  /** Stored envelopes of a run, as committed (`replayed: false`) or as read back on resume. */
  committed(events: readonly EventEnvelope<unknown>[], options: { readonly replayed: boolean }): void {
    for (const envelope of events) {
      const last = this.#delivered.get(envelope.runId) ?? 0;
      if (envelope.sequence <= last) continue;
      this.#delivered.set(envelope.runId, envelope.sequence);
      // Payloads are stored JSON: the log holds nothing else.
      this.#deliver({ ...(envelope as EventEnvelope), ephemeral: false, replayed: options.replayed });
    }
  }

  modelDelta(runId: string, delta: ModelDelta): void {
    this.#deliver(modelDeltaEvent(runId, delta));
  }

  /** Forwards an event another dispatcher (a sub-run's) delivered. */
  forward(event: RunEvent): void {
    if (event.ephemeral) this.#deliver(event);
    else this.committed([event], { replayed: event.replayed });
  }

  /** The last sequence delivered for a run (0 before any). */
  deliveredThrough(runId: string): number {
    return this.#delivered.get(runId) ?? 0;
  }

  #deliver(event: RunEvent): void {
    try {
      this.#listener(event);
    } catch (error) {
      if (this.#warned) return;
      this.#warned = true;
      process.emitWarning(`an onEvent listener threw (the run goes on; this is reported once): ${error instanceof Error ? error.message : String(error)}`, { code: "LITTLE_WORKFLOW_ON_EVENT" });
    }
  }
}
