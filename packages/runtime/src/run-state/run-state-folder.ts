import { addModelCallToTotals, bundledModelRegistry, emptyUsageTotals, priceModelCall, type ModelRegistry, type UsageTotals } from "@little-stack/models";
import { RunLogCorruptError } from "../errors/run-integrity-errors.js";
import type {
  ArtifactCreatedPayload,
  ArtifactRecord,
  EventRecord,
  ParallelBranchCompletedPayload,
  ParallelBranchFailedPayload,
  ParallelBranchScheduledPayload,
  ParallelGroupStartedPayload,
  RunCompletedPayload,
  RunFailedPayload,
  RunStartedPayload,
  StepAttemptStartedPayload,
  StepCompletedPayload,
  StepFailedPayload,
  StepScheduledPayload,
  WorkflowVersionRegisteredPayload,
} from "../events/runtime-event-types.js";
import type { BranchState, ParallelGroupState, RunState, StepState } from "./run-state.js";

/** The event types whose payload the folder reads. */
const payloadTypes: ReadonlySet<string> = new Set([
  "WorkflowVersionRegistered",
  "RunStarted",
  "StepScheduled",
  "StepAttemptStarted",
  "ArtifactCreated",
  "StepCompleted",
  "StepFailed",
  "ParallelGroupStarted",
  "ParallelBranchScheduled",
  "ParallelBranchCompleted",
  "ParallelBranchFailed",
  "ParallelGroupCompleted",
  "ParallelGroupFailed",
  "RunCompleted",
  "RunFailed",
  "harness.model.responded",
  "harness.tool_call.started",
  "harness.tool_call.succeeded",
  "harness.tool_call.failed",
]);

type Mutable<T> = { -readonly [Key in keyof T]: T[Key] };
type MutableStep = Mutable<StepState> & { artifactRefs: string[] };
type MutableGroup = Omit<Mutable<ParallelGroupState>, "branches"> & { branches: Map<string, Mutable<BranchState>> };

export type RunStateFolderOptions = {
  readonly runId: string;
  /** Prices model calls; default: the bundled registry. */
  readonly modelRegistry?: ModelRegistry;
};

/**
 * Folds a run's events into its state one event at a time: `apply` does a constant amount of
 * work per event (map lookups, one priced call for a model response), so keeping state current
 * while a run appends never re-reads the log. `snapshot()` copies the state out (O(state)).
 */
export class RunStateFolder {
  readonly runId: string;
  private readonly registry: ModelRegistry;
  private readonly stepsByPath = new Map<string, MutableStep>();
  private readonly groups = new Map<string, MutableGroup>();
  private readonly artifactList: ArtifactRecord[] = [];
  private run: Mutable<Omit<RunState, "steps" | "parallelGroups" | "artifacts" | "harness">>;
  private readonly harness = { sessions: 0, modelCalls: 0, toolCalls: 0, codeToolCalls: 0 };
  /**
   * Tool calls counted at their `started` and not yet settled. A call is counted at its first
   * event: a direct-execute step's call has no `started` in the log (the run log does not store
   * one its `succeeded`/`failed` repeats in the same transaction), so it is counted there.
   */
  private readonly unsettledToolCalls = new Set<string>();
  private lastSequence = 0;

  constructor(options: RunStateFolderOptions) {
    this.runId = options.runId;
    this.registry = options.modelRegistry ?? bundledModelRegistry;
    this.run = { runId: options.runId, status: "not_started", usage: emptyUsageTotals(), eventCount: 0 };
  }

  get eventCount(): number {
    return this.lastSequence;
  }

  /** True once `WorkflowVersionRegistered` was folded. */
  get workflowVersionRegistered(): boolean {
    return this.run.workflowVersionId !== undefined;
  }

  get status(): RunState["status"] {
    return this.run.status;
  }

  /** The live state of one step path (do not mutate). */
  step(stepPath: string): StepState | undefined {
    return this.stepsByPath.get(stepPath);
  }

  group(stepPath: string): ParallelGroupState | undefined {
    const group = this.groups.get(stepPath);
    return group === undefined ? undefined : { ...group, branches: Object.fromEntries(group.branches) };
  }

  branch(groupPath: string, itemKey: string): BranchState | undefined {
    return this.groups.get(groupPath)?.branches.get(itemKey);
  }

  get usage(): UsageTotals {
    return this.run.usage;
  }

  /**
   * Folds one event. `built`, when given, is the payload object the event's text was made from
   * (the run log holding an announcement it built itself): read instead of parsing the text back.
   * Only fields are copied out of it, never objects kept by reference.
   */
  apply(event: EventRecord, built?: unknown): void {
    if (event.sequence !== this.lastSequence + 1) {
      throw new RunLogCorruptError({
        runId: this.runId,
        sequence: event.sequence,
        problem: `expected sequence ${this.lastSequence + 1} (sequences are dense from 1)`,
      });
    }
    this.lastSequence = event.sequence;
    this.run.eventCount = event.sequence;
    // Most harness events only count, or not even that: their payloads are not read (a held
    // event's payload is parsed on first read).
    if (event.type === "harness.session.started") {
      this.harness.sessions += 1;
      return;
    }
    if (!payloadTypes.has(event.type)) return;
    const payload = (built ?? event.payload) as Record<string, unknown>;
    switch (event.type) {
      case "WorkflowVersionRegistered": {
        const registered = payload as WorkflowVersionRegisteredPayload;
        this.run.workflowVersionId = registered.workflowVersionId;
        this.run.workflowVersionHash = registered.hash;
        this.run.lwir = registered.lwir;
        break;
      }
      case "RunStarted": {
        const started = payload as RunStartedPayload;
        this.run.status = "running";
        this.run.workflowVersionId = started.workflowVersionId;
        this.run.input = started.input;
        this.run.startedAt = event.recordedAt;
        if (started.capabilities !== undefined) this.run.capabilities = started.capabilities;
        if (started.parentRunId !== undefined) this.run.parentRunId = started.parentRunId;
        if (started.outerLoopId !== undefined) this.run.outerLoopId = started.outerLoopId;
        break;
      }
      case "StepScheduled": {
        const scheduled = payload as StepScheduledPayload;
        if (this.stepsByPath.has(scheduled.stepPath)) break;
        this.stepsByPath.set(scheduled.stepPath, {
          stepPath: scheduled.stepPath,
          stepId: scheduled.stepId,
          uses: scheduled.uses,
          visitIndex: scheduled.visitIndex,
          status: "scheduled",
          attempts: 0,
          artifactRefs: [],
          usage: emptyUsageTotals(),
          modelCalls: 0,
          toolCalls: 0,
          ...(scheduled.parallel === undefined ? {} : { parallel: { groupPath: scheduled.parallel.groupPath, itemKey: scheduled.parallel.itemKey } }),
        });
        break;
      }
      case "StepAttemptStarted": {
        const started = payload as StepAttemptStartedPayload;
        const step = this.requireStep(started.stepPath, event);
        step.status = "running";
        step.attempts = started.attempt;
        step.attemptStartedSequence = event.sequence;
        // A parallel group's retry attempt: the group runs again (its branch records stay).
        const group = this.groups.get(started.stepPath);
        if (group !== undefined) group.status = "running";
        break;
      }
      case "ArtifactCreated":
        this.artifactList.push((payload as ArtifactCreatedPayload).artifact);
        break;
      case "StepCompleted": {
        const completed = payload as StepCompletedPayload;
        const step = this.requireStep(completed.stepPath, event);
        step.status = "completed";
        step.attempts = Math.max(step.attempts, completed.attempt);
        step.outputRef = completed.outputRef;
        step.outputInline = Object.hasOwn(completed, "output");
        if (step.outputInline) step.output = completed.output;
        step.artifactRefs = [...completed.artifactRefs];
        if (completed.fixedSource !== undefined) step.fixedSource = completed.fixedSource;
        delete step.error;
        break;
      }
      case "StepFailed": {
        const failed = payload as StepFailedPayload;
        const step = this.requireStep(failed.stepPath, event);
        step.status = "failed";
        step.error = failed.error;
        if (failed.fixedSource !== undefined) step.fixedSource = failed.fixedSource;
        break;
      }
      case "ParallelGroupStarted": {
        const started = payload as ParallelGroupStartedPayload;
        this.groups.set(started.stepPath, {
          stepPath: started.stepPath,
          stepId: started.stepId,
          status: "running",
          itemKeys: started.itemKeys,
          failureMode: started.failureMode,
          maxConcurrency: started.maxConcurrency,
          branches: new Map(),
        });
        break;
      }
      case "ParallelBranchScheduled": {
        const scheduled = payload as ParallelBranchScheduledPayload;
        this.requireGroup(scheduled.stepPath, event).branches.set(scheduled.itemKey, {
          itemKey: scheduled.itemKey,
          index: scheduled.index,
          branchPath: scheduled.branchPath,
          status: "scheduled",
        });
        break;
      }
      case "ParallelBranchCompleted": {
        const completed = payload as ParallelBranchCompletedPayload;
        const branch = this.requireBranch(completed.stepPath, completed.itemKey, event);
        branch.status = "completed";
        if (completed.outputStepPath !== undefined) branch.outputStepPath = completed.outputStepPath;
        break;
      }
      case "ParallelBranchFailed": {
        const failed = payload as ParallelBranchFailedPayload;
        const branch = this.requireBranch(failed.stepPath, failed.itemKey, event);
        branch.status = "failed";
        branch.error = failed.error;
        if (failed.failedStepPath !== undefined) branch.failedStepPath = failed.failedStepPath;
        break;
      }
      case "ParallelGroupCompleted":
        this.requireGroup(String(payload.stepPath), event).status = "completed";
        break;
      case "ParallelGroupFailed":
        this.requireGroup(String(payload.stepPath), event).status = "failed";
        break;
      case "RunCompleted": {
        const completed = payload as RunCompletedPayload;
        this.run.status = "completed";
        this.run.outputRef = completed.outputRef;
        this.run.terminalStepPath = completed.terminalStepPath;
        if (Object.hasOwn(completed, "output")) this.run.output = completed.output;
        this.run.endedAt = event.recordedAt;
        break;
      }
      case "RunFailed": {
        const failed = payload as RunFailedPayload;
        this.run.status = "failed";
        this.run.failure = failed.error;
        this.run.endedAt = event.recordedAt;
        break;
      }
      case "harness.model.responded":
        this.applyModelResponse(payload, event);
        break;
      case "harness.tool_call.started":
        this.unsettledToolCalls.add(String(payload.callId));
        this.countToolCall(payload);
        break;
      case "harness.tool_call.succeeded":
      case "harness.tool_call.failed":
        if (!this.unsettledToolCalls.delete(String(payload.callId))) this.countToolCall(payload);
        break;
      default:
        break;
    }
  }

  private countToolCall(payload: Record<string, unknown>): void {
    this.harness.toolCalls += 1;
    if (payload.caller === "code") this.harness.codeToolCalls += 1;
  }

  private applyModelResponse(payload: Record<string, unknown>, event: EventRecord): void {
    const model = payload.model as { provider?: unknown; modelId?: unknown } | undefined;
    const response = payload.response as { usage?: unknown } | undefined;
    if (model === undefined || response === undefined) {
      throw new RunLogCorruptError({ runId: this.runId, sequence: event.sequence, problem: "harness.model.responded without model or response" });
    }
    const priced = priceModelCall({ provider: String(model.provider), modelId: String(model.modelId), usage: response.usage as never }, this.registry);
    this.harness.modelCalls += 1;
    this.run.usage = addModelCallToTotals(this.run.usage, priced);
    const stepPath = typeof payload.stepPath === "string" ? payload.stepPath : undefined;
    const step = stepPath === undefined ? undefined : this.stepsByPath.get(stepPath);
    if (step !== undefined) {
      step.usage = addModelCallToTotals(step.usage, priced);
      step.modelCalls += 1;
    }
  }

  private requireStep(stepPath: string, event: EventRecord): MutableStep {
    const step = this.stepsByPath.get(stepPath);
    if (step === undefined) {
      throw new RunLogCorruptError({ runId: this.runId, sequence: event.sequence, problem: `${event.type} for step ${stepPath}, which was never scheduled` });
    }
    return step;
  }

  private requireGroup(stepPath: string, event: EventRecord): MutableGroup {
    const group = this.groups.get(stepPath);
    if (group === undefined) {
      throw new RunLogCorruptError({ runId: this.runId, sequence: event.sequence, problem: `${event.type} for parallel group ${stepPath}, which never started` });
    }
    return group;
  }

  private requireBranch(stepPath: string, itemKey: string, event: EventRecord): Mutable<BranchState> {
    const branch = this.requireGroup(stepPath, event).branches.get(itemKey);
    if (branch === undefined) {
      throw new RunLogCorruptError({ runId: this.runId, sequence: event.sequence, problem: `${event.type} for branch "${itemKey}" of ${stepPath}, which was never scheduled` });
    }
    return branch;
  }

  /** A detached copy of the whole state. */
  snapshot(): RunState {
    const steps: Record<string, StepState> = {};
    for (const [path, step] of this.stepsByPath) steps[path] = { ...step, artifactRefs: [...step.artifactRefs] };
    const parallelGroups: Record<string, ParallelGroupState> = {};
    for (const [path, group] of this.groups) {
      const branches: Record<string, BranchState> = {};
      for (const [key, branch] of group.branches) branches[key] = { ...branch };
      parallelGroups[path] = { ...group, branches };
    }
    return { ...this.run, steps, parallelGroups, artifacts: [...this.artifactList], harness: { ...this.harness } };
  }
}
