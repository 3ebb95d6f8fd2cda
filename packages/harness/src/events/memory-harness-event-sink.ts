import { createEventEnvelope } from "./create-event-envelope.js";
import type { HarnessEventSink } from "./harness-event-sink.js";
import type { HarnessEventEnvelope } from "./harness-event-types.js";

/**
 * An in-memory sink for one run: for tests, benchmarks and ephemeral sessions. Payloads are
 * copied through canonical JSON on append (createEventEnvelope), as a durable store would, so
 * later mutation of the caller's objects cannot change history.
 */
export type MemoryHarnessEventSink = HarnessEventSink & {
  readonly events: readonly HarnessEventEnvelope[];
};

export function createMemoryHarnessEventSink(runId: string, initial: readonly HarnessEventEnvelope[] = []): MemoryHarnessEventSink {
  const events: HarnessEventEnvelope[] = [...initial];
  return {
    runId,
    events,
    async append(batch) {
      const stored = batch.map((event, index) =>
        createEventEnvelope({
          runId,
          sequence: events.length + index + 1,
          type: event.type,
          payload: event.payload,
        }),
      );
      events.push(...stored);
      return stored;
    },
    async list(options) {
      const after = options?.afterSequence ?? 0;
      return events.filter((event) => event.sequence > after && event.type.startsWith("harness."));
    },
  };
}
