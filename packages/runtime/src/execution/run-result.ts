import type { World } from "@little-stack/local-world";
import type { UsageTotals } from "@little-stack/models";
import type { FailedRunResult } from "../errors/run-failed-error.js";
import type { ArtifactRecord, EventRecord } from "../events/runtime-event-types.js";
import type { RunStateFolder } from "../run-state/run-state-folder.js";
import type { RunHistory } from "./run-history.js";

/** What a completed run returns (seed 000). */
export type RunResult<TOutput = unknown> = {
  readonly runId: string;
  readonly workflowVersionId: string;
  readonly status: "completed";
  readonly output: TOutput;
  readonly usage: UsageTotals;
  /**
   * Every stored event of the run, in sequence order (a plain array). When the run had completed
   * before this call (a re-run returns its recorded result), or its log outgrew what the runtime
   * keeps in memory (a run of more than a few dozen steps), they are read from the world — and
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

/**
 * `history` is the run's committed events (`RunLog.history()`): the result holds them when they
 * are in memory, else reads them from the world when its `events` are first read.
 */
export async function buildRunResult(options: {
  world: World;
  runId: string;
  folder: RunStateFolder;
  history: RunHistory;
  output?: unknown;
}): Promise<RunResult> {
  const { world, runId, folder } = options;
  const state = folder.snapshot();
  // The live output is what was recorded, frozen (tool results are canonical snapshots): the
  // caller gets a copy of its own to change.
  let output = typeof options.output === "object" && options.output !== null ? (JSON.parse(JSON.stringify(options.output)) as unknown) : options.output;
  if (output === undefined) {
    output = Object.hasOwn(state, "output") ? state.output : state.outputRef?.startsWith("art_") ? await world.readArtifactJson(state.outputRef) : null;
  }
  const fields = { runId, workflowVersionId: state.workflowVersionId ?? "", status: "completed" as const, output, usage: state.usage, artifacts: state.artifacts };
  const { history } = options;
  if ("read" in history) return runResultWithEventsOnDemand(fields, history.read);
  return { runId, workflowVersionId: fields.workflowVersionId, status: "completed", output, usage: state.usage, events: history.events, artifacts: state.artifacts };
}

/** Like `buildRunResult`: `events` in memory, or read from the world (and kept) on their first read. */
export function buildFailedRunResult(options: { runId: string; folder: RunStateFolder; history: RunHistory }): FailedRunResult {
  const state = options.folder.snapshot();
  const failure = state.failure ?? { name: "RunFailed", message: "the run failed", causeCode: "step_failed" as const };
  const { history } = options;
  let events = "events" in history ? history.events : undefined;
  return {
    runId: options.runId,
    workflowVersionId: state.workflowVersionId ?? "",
    status: "failed",
    error: failure,
    usage: state.usage,
    get events(): readonly EventRecord[] {
      events ??= (history as { readonly read: () => readonly EventRecord[] }).read();
      return events;
    },
    artifacts: state.artifacts,
  };
}
