import type { ModelDelta } from "@little-stack/harness";
import { isoNow, type EventEnvelope } from "@little-stack/local-world";

/**
 * A committed event as a live watcher receives it: the stored envelope (sequence, id, payload as
 * the log holds it) plus `replayed` — `true` for what a resumed (or finished) run had recorded
 * before this call, handed over first and in order; `false` for what this call committed.
 */
export type CommittedRunEvent = EventEnvelope & {
  readonly ephemeral: false;
  readonly replayed: boolean;
};

/**
 * A piece of a live model response (text or reasoning), delivered while the call streams. It is
 * never in the log: the call's recorded `harness.model.responded` (a committed event that follows)
 * carries the whole response. A recorded call replayed on resume streams no deltas.
 */
export type ModelDeltaRunEvent = {
  readonly ephemeral: true;
  readonly type: "harness.model.text_delta" | "harness.model.reasoning_delta";
  readonly runId: string;
  /** When the piece arrived (ISO-8601). */
  readonly recordedAt: string;
  readonly payload: {
    readonly callId: string;
    readonly turn: number;
    readonly stepPath?: string;
    readonly delta: string;
  };
};

/** What `onEvent` and a run's event stream deliver. Tell the two apart by `ephemeral`. */
export type RunEvent = CommittedRunEvent | ModelDeltaRunEvent;

/**
 * Called synchronously, in commit order per run, right after each commit (before the run goes
 * on). Keep it cheap; a returned promise is not awaited (use a run's event stream for async
 * consumers: it has back-pressure). A listener that throws does not fail the run: the error is
 * reported once as a process warning and later events are still delivered.
 */
export type RunEventListener = (event: RunEvent) => void;

export function modelDeltaEvent(runId: string, delta: ModelDelta): ModelDeltaRunEvent {
  return {
    ephemeral: true,
    type: delta.kind === "text" ? "harness.model.text_delta" : "harness.model.reasoning_delta",
    runId,
    recordedAt: isoNow(),
    payload: { callId: delta.callId, turn: delta.turn, ...(delta.stepPath === undefined ? {} : { stepPath: delta.stepPath }), delta: delta.delta },
  };
}
