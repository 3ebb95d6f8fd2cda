import type { HarnessEventSink, ModelDelta } from "./harness-event-sink.js";
import type { HarnessEvent, HarnessEventEnvelope } from "./harness-event-types.js";
import { validateHarnessEvent } from "./validate-harness-event.js";

/**
 * The only way harness events reach a sink: every event is validated first, and a batch with one
 * bad event appends nothing.
 */
export type HarnessEventRecorder = {
  readonly runId: string;
  append(events: readonly { readonly type: string; readonly payload: unknown }[]): Promise<readonly HarnessEventEnvelope[]>;
  list(options?: { readonly afterSequence?: number }): Promise<readonly HarnessEventEnvelope[]>;
  /** The sink's live-delta listener, when the run is watched (see `HarnessEventSink.onModelDelta`). */
  readonly onModelDelta?: (delta: ModelDelta) => void;
};

export function createHarnessEventRecorder(options: {
  readonly sink: HarnessEventSink;
  /** Called after each batch is durable, with the stored envelopes. */
  readonly onAppended?: (events: readonly HarnessEventEnvelope[]) => void;
}): HarnessEventRecorder {
  const { sink, onAppended } = options;
  return {
    runId: sink.runId,
    // Not an async function: a step appends several times, and each extra async layer costs a
    // promise and a turn of the microtask queue. A bad event still rejects, appending nothing.
    append(events) {
      let appended: Promise<readonly HarnessEventEnvelope[]>;
      try {
        const checked: HarnessEvent[] = events.map((event) => validateHarnessEvent(event));
        // A custom sink that throws instead of rejecting still gives a rejected promise.
        appended = Promise.resolve(sink.append(checked));
      } catch (error) {
        return Promise.reject(error);
      }
      if (onAppended === undefined) return appended;
      return appended.then((stored) => {
        onAppended(stored);
        return stored;
      });
    },
    list: (listOptions) => sink.list(listOptions),
    ...(sink.onModelDelta === undefined ? {} : { onModelDelta: sink.onModelDelta }),
  };
}
