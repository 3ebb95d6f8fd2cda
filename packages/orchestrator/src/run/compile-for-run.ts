import type { WorkflowDefinition } from "@little-stack/authoring";
import { compileWorkflow, createWorkflowDefinitionSnapshot, workflowDefinitionHash, type CompilerWorkflowDefinitionSnapshot } from "@little-stack/compiler";
import type { ModelDelta, OuterLoopContext, ToolRegistry } from "@little-stack/harness";
import type { World } from "@little-stack/local-world";
import type { WorkflowVersionLike } from "@little-stack/runtime";

export type CompiledRun = {
  readonly workflowVersion: WorkflowVersionLike;
  readonly workflowDefinitionHash: string;
};

export type CompileForRunOptions = {
  readonly definition: WorkflowDefinition;
  readonly input: unknown;
  readonly world: World;
  readonly runId: string;
  /** The registry of exactly the workflow's tools. */
  readonly tools: ToolRegistry;
  readonly signal: AbortSignal;
  readonly outerLoopContext?: OuterLoopContext;
  readonly parentRunId?: string;
  /** The pipeline run when this run belongs to an orchestration (its scratch is mounted read-only). */
  readonly pipelineRunId?: string;
  /** The planner's live text pieces, when someone watches the run. */
  readonly onModelDelta?: (delta: ModelDelta) => void;
  /** True when the caller holds the run lock (the compile then takes none). */
  readonly holdsRunLock?: boolean;
};

/** The snapshot a planner (or orchestrator) sees of a definition (seed 001, stage 3). */
export function definitionSnapshotOf(definition: WorkflowDefinition, tools: ToolRegistry, world: World): Promise<CompilerWorkflowDefinitionSnapshot> {
  return createWorkflowDefinitionSnapshot({ definition, tools, dataDir: world.paths.dataDir });
}

/** `WorkflowDefinitionHash` of a definition against the tools it runs with (the compiler's hash). */
export async function definitionHashOf(definition: WorkflowDefinition, tools: ToolRegistry, world: World): Promise<string> {
  return workflowDefinitionHash(await definitionSnapshotOf(definition, tools, world));
}

/**
 * Compiles a definition for one run through @little-stack/compiler: input validated, planner
 * session in the run's own log, validation and binding, registered and locked version. A
 * resumed run fast-forwards the planner; a completed compile is read back from the log.
 */
export async function compileForRun(options: CompileForRunOptions): Promise<CompiledRun> {
  const compiled = await compileWorkflow(options.definition, options.input ?? null, {
    world: options.world,
    runId: options.runId,
    tools: options.tools,
    abortSignal: options.signal,
    ...(options.outerLoopContext === undefined ? {} : { outerLoopContext: options.outerLoopContext }),
    ...(options.parentRunId === undefined ? {} : { parentRunId: options.parentRunId }),
    ...(options.pipelineRunId === undefined ? {} : { pipelineRunId: options.pipelineRunId }),
    ...(options.onModelDelta === undefined ? {} : { onModelDelta: options.onModelDelta }),
    ...(options.holdsRunLock === undefined ? {} : { holdsRunLock: options.holdsRunLock }),
  });
  return { workflowVersion: compiled.version, workflowDefinitionHash: compiled.workflowDefinitionHash };
}
