import type { RunFailedCauseCode } from "../errors/run-failed-error.js";

/** A stored event as the runtime reads it (the World envelope, payload left loosely typed). */
export type EventRecord = {
  readonly eventId: string;
  readonly runId: string;
  readonly sequence: number;
  readonly type: string;
  readonly recordedAt: string;
  readonly payload: unknown;
};

/** An artifact the run wrote (the world's manifest). */
export type ArtifactRecord = {
  readonly id: string;
  readonly runId: string;
  readonly stepPath: string;
  readonly name: string;
  readonly contentType: string;
  readonly encoding: string;
  readonly sha256: string;
  readonly size: number;
};

/** What a run pinned at start, compared on resume to detect capability drift. */
export type RunCapabilities = {
  readonly harnessId: string;
  /** Tool name → descriptor digest (name, description, schemas). */
  readonly tools: Readonly<Record<string, string>>;
  /** Model slot → `provider:modelId`. */
  readonly models: Readonly<Record<string, string>>;
  readonly digest: string;
};

export type WorkflowVersionRegisteredPayload = {
  readonly workflowVersionId: string;
  readonly hash: string;
  readonly lwir: unknown;
};

export type RunStartedPayload = {
  readonly workflowVersionId: string;
  readonly input: unknown;
  readonly parentRunId?: string;
  readonly outerLoopId?: string;
  /** Extension: the capability pins of this run. */
  readonly capabilities?: RunCapabilities;
};

export type StepScheduledPayload = {
  readonly stepPath: string;
  readonly stepId: string;
  readonly uses: string;
  readonly visitIndex: number;
  /** The parallel group path and item key, for a branch step. */
  readonly parallel?: { readonly groupPath: string; readonly itemKey: string };
};

export type StepAttemptStartedPayload = {
  readonly stepPath: string;
  readonly stepId: string;
  readonly attempt: number;
  readonly attemptId: string;
  /**
   * When the attempt started (ISO-8601). The event is an announcement, committed with the next
   * result, so its own `recordedAt` is that commit's time: this is the time a timeline needs.
   */
  readonly startedAt?: string;
};

export type ArtifactCreatedPayload = {
  readonly stepPath: string;
  readonly artifact: ArtifactRecord;
};

export type StepOutputValidatedPayload = {
  readonly stepPath: string;
  readonly stepId: string;
  readonly attempt: number;
  readonly outputMode: string;
  readonly schemaHash: string;
};

export type StepErrorPayload = {
  readonly name: string;
  readonly message: string;
  readonly causeCode?: RunFailedCauseCode;
  readonly retriable: boolean;
  readonly code?: string;
};

export type StepCompletedPayload = {
  readonly stepPath: string;
  readonly stepId: string;
  readonly attempt: number;
  /** Inline when its canonical JSON is at most 256,000 characters; else only `outputRef`. */
  readonly output?: unknown;
  /** `art_…` when the output is an artifact, else the `sha256:` digest of the inline output. */
  readonly outputRef: string;
  readonly artifactRefs: readonly string[];
  readonly metadata: {
    readonly uses: string;
    readonly outputMode: string;
    readonly schemaHash: string;
    readonly usage?: unknown;
  };
  /** The fixer's source when the output came from a fix (never written back to the LWIR). */
  readonly fixedSource?: string;
};

export type StepFailedPayload = {
  readonly stepPath: string;
  readonly stepId: string;
  readonly attempt: number;
  readonly error: StepErrorPayload;
  /** Set when a fixer session ran for this attempt and did not produce a valid output. */
  readonly fixedSource?: string;
  /**
   * Set when the attempt ended after another step of the same list had failed terminally (it was
   * cancelled, or failed on its own once that happened): that failure, which the list fails with.
   */
  readonly cancelledBy?: { readonly causeCode: RunFailedCauseCode; readonly failedStepPath?: string; readonly error: StepErrorPayload };
};

export type ParallelGroupStartedPayload = {
  readonly stepPath: string;
  readonly stepId: string;
  readonly itemKeys: readonly string[];
  readonly maxConcurrency: number;
  readonly failureMode: "fail_fast" | "all_settled";
};

export type ParallelBranchScheduledPayload = {
  readonly stepPath: string;
  readonly itemKey: string;
  readonly index: number;
  readonly branchPath: string;
};

export type ParallelBranchCompletedPayload = {
  readonly stepPath: string;
  readonly itemKey: string;
  readonly branchPath: string;
  readonly outputStepPath?: string;
};

export type ParallelBranchFailedPayload = {
  readonly stepPath: string;
  readonly itemKey: string;
  readonly branchPath: string;
  readonly failedStepPath?: string;
  readonly error: StepErrorPayload;
};

export type ParallelGroupCompletedPayload = {
  readonly stepPath: string;
  readonly completed: number;
  readonly failed: number;
};

export type ParallelGroupFailedPayload = {
  readonly stepPath: string;
  readonly error: StepErrorPayload;
  readonly failedStepPath?: string;
};

export type RunCompletedPayload = {
  readonly workflowVersionId: string;
  readonly output?: unknown;
  readonly outputRef: string;
  readonly terminalStepPath: string | null;
};

export type RunFailedPayload = {
  readonly workflowVersionId: string;
  readonly error: {
    readonly name: string;
    readonly message: string;
    readonly causeCode: RunFailedCauseCode;
    readonly failedStepPath?: string;
  };
};

/** Event type → payload, for the events the runtime itself writes. */
export type RuntimeEventPayloads = {
  readonly WorkflowVersionRegistered: WorkflowVersionRegisteredPayload;
  readonly RunStarted: RunStartedPayload;
  readonly StepScheduled: StepScheduledPayload;
  readonly StepAttemptStarted: StepAttemptStartedPayload;
  readonly ArtifactCreated: ArtifactCreatedPayload;
  readonly StepOutputValidated: StepOutputValidatedPayload;
  readonly StepCompleted: StepCompletedPayload;
  readonly StepFailed: StepFailedPayload;
  readonly ParallelGroupStarted: ParallelGroupStartedPayload;
  readonly ParallelBranchScheduled: ParallelBranchScheduledPayload;
  readonly ParallelBranchCompleted: ParallelBranchCompletedPayload;
  readonly ParallelBranchFailed: ParallelBranchFailedPayload;
  readonly ParallelGroupCompleted: ParallelGroupCompletedPayload;
  readonly ParallelGroupFailed: ParallelGroupFailedPayload;
  readonly RunCompleted: RunCompletedPayload;
  readonly RunFailed: RunFailedPayload;
};

export type RuntimeEventType = keyof RuntimeEventPayloads;

export type RuntimeEvent = {
  [Type in RuntimeEventType]: { readonly type: Type; readonly payload: RuntimeEventPayloads[Type] };
}[RuntimeEventType];

/** Outputs whose canonical JSON is longer than this go to an artifact. */
export const inlineOutputLimit = 256_000;
