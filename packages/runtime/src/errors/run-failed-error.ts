import { LittleWorkflowError } from "@little-stack/canonical";
import type { ArtifactRecord, EventRecord } from "../events/runtime-event-types.js";
import type { UsageTotals } from "@little-stack/models";

/** Why a run failed (seed 000, runtime.md § Errors). */
export type RunFailedCauseCode =
  | "input_schema_error"
  | "planner_validation_exhausted"
  | "capability_drift"
  | "runtime_config_error"
  | "step_schema_error"
  | "step_failed"
  | "max_visits_exceeded"
  | "timeout"
  | "cancelled"
  | "outer_loop_exhausted";

export const runFailedCauseCodes: readonly RunFailedCauseCode[] = [
  "input_schema_error",
  "planner_validation_exhausted",
  "capability_drift",
  "runtime_config_error",
  "step_schema_error",
  "step_failed",
  "max_visits_exceeded",
  "timeout",
  "cancelled",
  "outer_loop_exhausted",
];

/** Causes that are never retried and skip the fixer (runtime.md § Step semantics). */
export const terminalCauseCodes: ReadonlySet<string> = new Set([
  "cancelled",
  "timeout",
  "capability_drift",
  "runtime_config_error",
  "step_schema_error",
  "max_visits_exceeded",
]);

/** What a failed run leaves behind, for inspection: the same fields as RunResult with the error. */
export type FailedRunResult = {
  readonly runId: string;
  readonly workflowVersionId: string;
  readonly status: "failed";
  readonly error: { readonly name: string; readonly message: string; readonly causeCode: RunFailedCauseCode; readonly failedStepPath?: string };
  readonly usage: UsageTotals;
  /** As `RunResult.events`: a long run's are read from the world on first access, then kept. */
  readonly events: readonly EventRecord[];
  readonly artifacts: readonly ArtifactRecord[];
};

export type RunFailedErrorOptions = {
  readonly runId: string;
  readonly workflowVersionId: string;
  readonly causeCode: RunFailedCauseCode;
  readonly message: string;
  readonly failedStepPath?: string;
  readonly result?: FailedRunResult;
  readonly outerLoopId?: string;
  readonly lastCycleOutput?: unknown;
  readonly cause?: unknown;
};

/** A run ended with `RunFailed` (or could not start). `causeCode` says why, `failedStepPath` where. */
export class RunFailedError extends LittleWorkflowError {
  readonly runId: string;
  readonly workflowVersionId: string;
  readonly failedStepPath?: string;
  readonly causeCode: RunFailedCauseCode;
  readonly result?: FailedRunResult;
  readonly outerLoopId?: string;
  readonly lastCycleOutput?: unknown;

  constructor(options: RunFailedErrorOptions) {
    const where = options.failedStepPath === undefined ? "" : ` at step ${options.failedStepPath}`;
    super("runtime.run_failed", `Run ${options.runId} failed (${options.causeCode})${where}: ${options.message}`, {
      ...(options.cause === undefined ? {} : { cause: options.cause }),
      details: {
        runId: options.runId,
        workflowVersionId: options.workflowVersionId,
        causeCode: options.causeCode,
        ...(options.failedStepPath === undefined ? {} : { failedStepPath: options.failedStepPath }),
      },
    });
    this.runId = options.runId;
    this.workflowVersionId = options.workflowVersionId;
    this.causeCode = options.causeCode;
    if (options.failedStepPath !== undefined) this.failedStepPath = options.failedStepPath;
    if (options.result !== undefined) this.result = options.result;
    if (options.outerLoopId !== undefined) this.outerLoopId = options.outerLoopId;
    if (options.lastCycleOutput !== undefined) this.lastCycleOutput = options.lastCycleOutput;
  }
}
