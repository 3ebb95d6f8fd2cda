import type { HarnessEventEnvelope, HarnessEventSink } from "@little-stack/harness";
import type { World } from "@little-stack/local-world";
import type { EventRecord, RuntimeEvent } from "../events/runtime-event-types.js";
import type { RunStateFolder } from "../run-state/run-state-folder.js";

type AnyEvent = { readonly type: string; readonly payload: unknown };

/**
 * The one writer of a run's log in this process: appends go to the world one batch at a time
 * (so sequences reach the folder in order) and every stored event is folded into the live state.
 */
export class RunLog {
  private tail: Promise<unknown> = Promise.resolve();
  private sealed = false;
  private harnessSealed = false;

  constructor(
    readonly world: World,
    readonly runId: string,
    readonly folder: RunStateFolder,
  ) {}

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

  appendAny(events: readonly AnyEvent[]): Promise<readonly EventRecord[]> {
    if (this.sealed) return Promise.reject(new Error(`The log of run ${this.runId} is closed: the run already ended.`));
    const next = this.tail.then(async () => {
      const stored = await this.world.appendEvents(this.runId, events);
      for (const event of stored) this.folder.apply(event);
      return stored as readonly EventRecord[];
    });
    // Keep the chain alive after a failed append; the caller still sees the rejection.
    this.tail = next.catch(() => undefined);
    return next;
  }

  /**
   * The World → harness sink adapter for one step attempt. Appends go through this log (so the
   * run state sees model usage as it happens) with the step path stamped on model responses the
   * harness left unstamped; `list` starts after the attempt's `StepAttemptStarted`, because a
   * session's events are always written after its attempt started — this keeps opening a
   * session O(events of this attempt), not O(run).
   */
  harnessSink(options: { readonly stepPath: string; readonly afterSequence: number }): HarnessEventSink {
    const { stepPath, afterSequence } = options;
    return {
      runId: this.runId,
      append: async (events) => {
        if (this.harnessSealed) throw new Error(`The run ${this.runId} was aborted: harness events are no longer recorded.`);
        const stamped = events.map((event) => {
          if ((event.type === "harness.model.responded" || event.type === "harness.model.failed") && event.payload.stepPath === undefined) {
            return { type: event.type, payload: { ...event.payload, stepPath } };
          }
          return event;
        });
        return (await this.appendAny(stamped)) as readonly HarnessEventEnvelope[];
      },
      list: async (listOptions) => {
        await this.tail;
        const after = Math.max(afterSequence, listOptions?.afterSequence ?? 0);
        return (await this.world.listEvents(this.runId, { afterSequence: after, typePrefix: "harness." })) as readonly HarnessEventEnvelope[];
      },
    };
  }
}
