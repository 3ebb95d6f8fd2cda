import type { World } from "@little-stack/local-world";
import type { UsageTotals } from "@little-stack/models";
import type { FailedRunResult } from "../errors/run-failed-error.js";
import type { ArtifactRecord, EventRecord } from "../events/runtime-event-types.js";
import type { RunStateFolder } from "../run-state/run-state-folder.js";

/** What a completed run returns (seed 000). */
export type RunResult<TOutput = unknown> = {
  readonly runId: string;
  readonly workflowVersionId: string;
  readonly status: "completed";
  readonly output: TOutput;
  readonly usage: UsageTotals;
  /**
   * Every stored event of the run, in sequence order (a plain array). When the run had completed
   * before this call (a re-run returns its recorded result), they are read from the world — and
   * verified, like `listEvents` — the first time this property is read, then kept: that first
   * read takes time in proportion to the run and throws the world's integrity errors
   * (`world.event_log_corrupt`, …) for a damaged log.
   */
  readonly events: readonly EventRecord[];
  readonly artifacts: readonly ArtifactRecord[];
};

/**
 * A RunResult whose `events` are produced by `readEvents` on the first read of the property (an
 * enumerable getter, so spreading, `JSON.stringify`, `structuredClone` and deep equality see the
 * array) and kept; a read that throws is tried again on the next access. The other fields are
 * plain values.
 */
export function runResultWithEventsOnDemand(fields: Omit<RunResult, "events">, readEvents: () => readonly EventRecord[]): RunResult {
  let events: readonly EventRecord[] | undefined;
  return {
    runId: fields.runId,
    workflowVersionId: fields.workflowVersionId,
    status: fields.status,
    output: fields.output,
    usage: fields.usage,
    get events(): readonly EventRecord[] {
      events ??= readEvents();
      return events;
    },
    artifacts: fields.artifacts,
  };
}

/** `events` are the run's stored events (`RunLog.stored()`): the result does not read the log back. */
export async function buildRunResult(options: {
  world: World;
  runId: string;
  folder: RunStateFolder;
  events: readonly EventRecord[];
  output?: unknown;
}): Promise<RunResult> {
  const { world, runId, folder } = options;
  const state = folder.snapshot();
  let output = options.output;
  if (output === undefined) {
    output = Object.hasOwn(state, "output") ? state.output : state.outputRef?.startsWith("art_") ? await world.readArtifactJson(state.outputRef) : null;
  }
  return {
    runId,
    workflowVersionId: state.workflowVersionId ?? "",
    status: "completed",
    output,
    usage: state.usage,
    events: options.events,
    artifacts: state.artifacts,
  };
}

export function buildFailedRunResult(options: { runId: string; folder: RunStateFolder; events: readonly EventRecord[] }): FailedRunResult {
  const state = options.folder.snapshot();
  const failure = state.failure ?? { name: "RunFailed", message: "the run failed", causeCode: "step_failed" as const };
  return {
    runId: options.runId,
    workflowVersionId: state.workflowVersionId ?? "",
    status: "failed",
    error: failure,
    usage: state.usage,
    events: options.events,
    artifacts: state.artifacts,
  };
}
