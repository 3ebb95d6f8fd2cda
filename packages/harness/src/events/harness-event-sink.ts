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
  /**
   * Optional: someone is watching the run live. When present, model calls made live stream from
   * the provider and every text or reasoning piece is handed here as it arrives. Never recorded:
   * the log still gets one `harness.model.responded` per call, and a replayed call streams nothing.
   */
  readonly onModelDelta?: (delta: ModelDelta) => void;
};

/** A piece of a live model response, before it is recorded (ephemeral). */
export type ModelDelta = {
  readonly kind: "text" | "reasoning";
  /** The model call it belongs to (the id `harness.model.called` / `.responded` carry). */
  readonly callId: string;
  readonly turn: number;
  readonly stepPath?: string;
  readonly delta: string;
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
