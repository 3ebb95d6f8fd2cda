import type { WorkflowDefinition } from "@little-stack/authoring";
import { LittleWorkflowError } from "@little-stack/canonical";
import type { ModelDelta, OuterLoopContext, ResolvedModel, ToolRegistry } from "@little-stack/harness";
import type { World } from "@little-stack/local-world";
import type { ModelRegistry } from "@little-stack/models";
import { completedRunResult, executeWorkflowVersion, materializeRunState, RunFailedError, type FailedRunResult, type RunEventDispatcher, type RunFailedCauseCode, type RunResult } from "@little-stack/runtime";
import { compileForRun } from "./compile-for-run.js";
import { unreportedWorld } from "../live/world-reporting-to.js";
import { Deadline } from "./deadline.js";

export type RunCycleOptions = {
  readonly definition: WorkflowDefinition;
  readonly input: unknown;
  readonly world: World;
  readonly runId: string;
  /** The registry of exactly the workflow's tools. */
  readonly tools: ToolRegistry;
  readonly deadline: Deadline;
  readonly outerLoopContext?: OuterLoopContext;
  readonly parentRunId?: string;
  /** The pipeline run when this run belongs to an orchestration. */
  readonly pipelineRunId?: string;
  readonly outerLoopId?: string;
  readonly modelRegistry?: ModelRegistry;
  /** Who watches the run live (the world given is then one reporting to it as well). */
  readonly watcher?: RunEventDispatcher;
};

/** Execution model slots of a definition, by slot id, for the runtime. */
export function modelsOf(definition: WorkflowDefinition): Record<string, ResolvedModel> {
  const models: Record<string, ResolvedModel> = {};
  for (const slot of definition.models) models[slot.id] = { slotId: slot.id, provider: slot.providerId, modelId: slot.modelId, model: slot.model };
  return models;
}

/** The failed result of a run that never reached the runtime (a compile failure), from its log. */
export async function failedResultFromLog(options: { readonly world: World; readonly runId: string; readonly error: RunFailedError; readonly modelRegistry?: ModelRegistry }): Promise<FailedRunResult> {
  const events = await options.world.listEvents(options.runId);
  const state = materializeRunState(events, { runId: options.runId, ...(options.modelRegistry === undefined ? {} : { modelRegistry: options.modelRegistry }) });
  return {
    runId: options.runId,
    workflowVersionId: options.error.workflowVersionId,
    status: "failed",
    error: { name: options.error.name, message: options.error.message, causeCode: options.error.causeCode, ...(options.error.failedStepPath === undefined ? {} : { failedStepPath: options.error.failedStepPath }) },
    usage: state.usage,
    events,
    artifacts: state.artifacts,
  };
}

function withResult(error: RunFailedError, result: FailedRunResult, extra: { readonly outerLoopId?: string; readonly lastCycleOutput?: unknown } = {}): RunFailedError {
  return new RunFailedError({
    runId: error.runId,
    workflowVersionId: error.workflowVersionId,
    causeCode: error.causeCode,
    message: error.message.replace(/^Run \S+ failed \(\w+\)(?: at step \S+)?: /, ""),
    ...(error.failedStepPath === undefined ? {} : { failedStepPath: error.failedStepPath }),
    result,
    ...(extra.outerLoopId === undefined ? {} : { outerLoopId: extra.outerLoopId }),
    ...(Object.hasOwn(extra, "lastCycleOutput") ? { lastCycleOutput: extra.lastCycleOutput } : {}),
    cause: error.cause ?? error,
  });
}

/** Maps a compile failure to the RunFailedError cause code runtime.md names for it. */
function compileFailure(error: unknown, runId: string, deadline: Deadline): RunFailedError | undefined {
  if (error instanceof RunFailedError) return error;
  if (deadline.signal.aborted) {
    const causeCode: RunFailedCauseCode = deadline.abortCause() ?? "cancelled";
    return new RunFailedError({ runId, workflowVersionId: "", causeCode, message: causeCode === "timeout" ? "the timeout elapsed while the planner was compiling" : "the run was cancelled while the planner was compiling", cause: error });
  }
  if (!LittleWorkflowError.is(error)) return undefined;
  const causeCode = (error as { causeCode?: unknown }).causeCode;
  if (causeCode === "input_schema_error" || causeCode === "planner_validation_exhausted") {
    return new RunFailedError({ runId, workflowVersionId: "", causeCode, message: error.message, cause: error });
  }
  if (error.code === "harness.capability_drift" || error.name === "CapabilityDriftError") {
    return new RunFailedError({ runId, workflowVersionId: "", causeCode: "capability_drift", message: error.message, cause: error });
  }
  return undefined;
}

/**
 * A planner that used every revision is a final outcome of the run: record it as `RunFailed`
 * (once) so the log reads as failed (`little runs`, `replayRun`). Interruptions are not recorded
 * (a resume continues them); an input error never started the run's log.
 */
async function recordCompileFailure(world: World, runId: string, failure: RunFailedError): Promise<void> {
  const events = await world.listEvents(runId, { typePrefix: "Run" });
  if (events.some((event) => event.type === "RunFailed" || event.type === "RunCompleted")) return;
  const message = failure.message.replace(/^Run \S+ failed \(\w+\)(?: at step \S+)?: /, "");
  await world.appendEvents(runId, [{ type: "RunFailed", payload: { workflowVersionId: "", error: { name: "PlannerValidationExhaustedError", message, causeCode: failure.causeCode } } }]);
}

/**
 * One compile + execute in one durable run (Layer A). Returns seed 000's RunResult; throws
 * RunFailedError with its cause code and the failed result attached.
 */
export async function runCycle(options: RunCycleOptions): Promise<RunResult> {
  const { world, runId, deadline } = options;
  const registry = options.modelRegistry === undefined ? {} : { modelRegistry: options.modelRegistry };
  // A completed run is final: running it again with the same input returns its recorded result
  // without compiling, locking or folding its log — its events are read when the result's are
  // (anything else takes the path below, which says what differs).
  const recorded = await completedRunResult({ world, runId, input: options.input, ...registry });
  if (recorded !== undefined) return recorded;
  // One lock for the compile and the run: taking and giving back a lock writes its row and the
  // owner.json mirror, and the compile's lock was given back only for the run to take it again.
  const lock = await world.acquireRunLock(runId);
  try {
    return await compileAndExecute(options);
  } finally {
    await lock.release();
  }
}

/** The compile and the run of `runCycle`, under the run lock it holds. */
async function compileAndExecute(options: RunCycleOptions): Promise<RunResult> {
  const { world, runId, deadline } = options;
  const registry = options.modelRegistry === undefined ? {} : { modelRegistry: options.modelRegistry };
  let compiled;
  try {
    // Stopped before starting: nothing to compile or run.
    if (deadline.signal.aborted) throw new Error("aborted before the compile started");
    compiled = await compileForRun({
      definition: options.definition,
      input: options.input,
      world,
      runId,
      tools: options.tools,
      signal: deadline.signal,
      holdsRunLock: true,
      ...(options.outerLoopContext === undefined ? {} : { outerLoopContext: options.outerLoopContext }),
      ...(options.parentRunId === undefined ? {} : { parentRunId: options.parentRunId }),
      ...(options.pipelineRunId === undefined ? {} : { pipelineRunId: options.pipelineRunId }),
      ...(options.watcher === undefined ? {} : { onModelDelta: (delta: ModelDelta) => options.watcher?.modelDelta(runId, delta) }),
    });
  } catch (error) {
    const failure = compileFailure(error, runId, deadline);
    if (failure === undefined) throw error;
    if (failure.causeCode === "planner_validation_exhausted") await recordCompileFailure(world, runId, failure);
    throw withResult(failure, await failedResultFromLog({ world, runId, error: failure, ...registry }), options.outerLoopId === undefined ? {} : { outerLoopId: options.outerLoopId });
  }
  try {
    return await executeWorkflowVersion({
      // The runtime reports its own commits to the watcher (onEvent below).
      world: unreportedWorld(world),
      workflowVersion: compiled.workflowVersion,
      input: options.input,
      runId,
      tools: options.tools,
      models: modelsOf(options.definition),
      workerHarness: options.definition.worker.harness,
      harnessId: options.definition.worker.harnessId,
      signal: deadline.userSignal,
      holdsRunLock: true,
      ...(deadline.remainingMs() === undefined ? {} : { timeout: Math.max(1, deadline.remainingMs()!) }),
      ...(options.parentRunId === undefined ? {} : { parentRunId: options.parentRunId }),
      ...(options.outerLoopId === undefined ? {} : { outerLoopId: options.outerLoopId }),
      ...(options.pipelineRunId === undefined ? {} : { pipelineRunId: options.pipelineRunId }),
      workflowId: options.definition.id,
      memory: options.definition.memory,
      workerSkills: options.definition.worker.skills,
      ...(options.definition.bash === undefined ? {} : { bashCapabilities: options.definition.bash }),
      ...(options.watcher === undefined ? {} : { onEvent: options.watcher }),
      ...registry,
    });
  } catch (error) {
    if (error instanceof RunFailedError && error.result === undefined) {
      throw withResult(error, await failedResultFromLog({ world, runId, error, ...registry }));
    }
    throw error;
  }
}
