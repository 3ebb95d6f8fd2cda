import type { UsageTotals } from "@little-stack/models";
import type { RunFailedCauseCode } from "../errors/run-failed-error.js";
import type { ArtifactRecord, RunCapabilities, StepErrorPayload } from "../events/runtime-event-types.js";

export type StepStatus = "scheduled" | "running" | "completed" | "failed";

/** One step path (one visit of one step, or one branch step) as the log tells it. */
export type StepState = {
  readonly stepPath: string;
  readonly stepId: string;
  readonly uses: string;
  readonly visitIndex: number;
  readonly status: StepStatus;
  /** The highest attempt number started (1-based); 0 before the first attempt. */
  readonly attempts: number;
  /** Sequence of the last `StepAttemptStarted` (where its harness events begin). */
  readonly attemptStartedSequence?: number;
  readonly output?: unknown;
  /** `art_…` or the `sha256:` digest of the inline output. */
  readonly outputRef?: string;
  /** False when the output lives in an artifact (read it by `outputRef`). */
  readonly outputInline?: boolean;
  readonly artifactRefs: readonly string[];
  /** The last failure (of the last failed attempt). */
  readonly error?: StepErrorPayload;
  readonly fixedSource?: string;
  readonly usage: UsageTotals;
  readonly modelCalls: number;
  readonly toolCalls: number;
  readonly parallel?: { readonly groupPath: string; readonly itemKey: string };
};

export type BranchState = {
  readonly itemKey: string;
  readonly index: number;
  readonly branchPath: string;
  readonly status: "scheduled" | "completed" | "failed";
  readonly outputStepPath?: string;
  readonly failedStepPath?: string;
  readonly error?: StepErrorPayload;
};

export type ParallelGroupState = {
  readonly stepPath: string;
  readonly stepId: string;
  readonly status: "running" | "completed" | "failed";
  readonly itemKeys: readonly string[];
  readonly failureMode: "fail_fast" | "all_settled";
  readonly maxConcurrency: number;
  /** By item key. */
  readonly branches: Readonly<Record<string, BranchState>>;
};

export type RunStatus = "not_started" | "running" | "completed" | "failed";

export type RunFailureState = {
  readonly name: string;
  readonly message: string;
  readonly causeCode: RunFailedCauseCode;
  readonly failedStepPath?: string;
};

/** The materialized state of one run: what `replayRun` returns and what `little replay` prints. */
export type RunState = {
  readonly runId: string;
  readonly status: RunStatus;
  readonly workflowVersionId?: string;
  readonly workflowVersionHash?: string;
  readonly lwir?: unknown;
  readonly input?: unknown;
  readonly capabilities?: RunCapabilities;
  readonly parentRunId?: string;
  readonly outerLoopId?: string;
  /** By step path, in the order steps were first scheduled. */
  readonly steps: Readonly<Record<string, StepState>>;
  readonly parallelGroups: Readonly<Record<string, ParallelGroupState>>;
  /** Totals over every model call of the run (cost derived from the model registry now). */
  readonly usage: UsageTotals;
  readonly output?: unknown;
  readonly outputRef?: string;
  readonly terminalStepPath?: string | null;
  readonly failure?: RunFailureState;
  readonly artifacts: readonly ArtifactRecord[];
  readonly eventCount: number;
  readonly startedAt?: string;
  readonly endedAt?: string;
  readonly harness: {
    readonly sessions: number;
    readonly modelCalls: number;
    readonly toolCalls: number;
    readonly codeToolCalls: number;
  };
};
