import type { HarnessEvent, HarnessEventEnvelope } from "./harness-event-types.js";

/**
 * Where a session's events go, bound to one run. The harness never depends on a world: a World
 * satisfies this through `harnessEventSinkFromWorld`, tests through a memory or file sink.
 */
export type HarnessEventSink = {
  readonly runId: string;
  /** Appends the events atomically, in order; resolves once they are durable. */
  append(events: readonly HarnessEvent[]): Promise<readonly HarnessEventEnvelope[]>;
  /** The run's recorded `harness.*` events in sequence order. */
  list(options?: { readonly afterSequence?: number }): Promise<readonly HarnessEventEnvelope[]>;
};

/** The two core World methods (runtime.md), structurally, so no world package is imported. */
export type EventStoreLike = {
  appendEvents(
    runId: string,
    events: readonly { readonly type: string; readonly payload: unknown }[],
  ): Promise<readonly HarnessEventEnvelope[]>;
  listEvents(
    runId: string,
    options?: { readonly afterSequence?: number; readonly typePrefix?: string },
  ): Promise<readonly HarnessEventEnvelope[]>;
};

/** Adapts any World-like event store to a sink for one run. */
export function harnessEventSinkFromWorld(store: EventStoreLike, runId: string): HarnessEventSink {
  return {
    runId,
    append: (events) => store.appendEvents(runId, events),
    list: (options) =>
      store.listEvents(runId, {
        typePrefix: "harness.",
        ...(options?.afterSequence === undefined ? {} : { afterSequence: options.afterSequence }),
      }),
  };
}
