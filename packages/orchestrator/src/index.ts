// Public surface of @little-stack/orchestrator: an explicit list of named exports.

// runWorkflow (Layer A) and the outer loop (Layer B)
export { runWorkflow, type RunWorkflowOptions } from "./run/run-workflow.js";
export { cycleRunIdFor, outerLoopIdFor, type OuterLoopCycleCompletedPayload } from "./outer-loop/run-outer-loop.js";
export type { OuterLoopCycleEntry, OuterLoopManifest } from "./outer-loop/outer-loop-manifest.js";

// Watching runs live (onEvent is an option of runWorkflow and runOrchestration)
export { streamOrchestration, streamWorkflow, type StreamOptions, type WorkflowStream } from "./live/stream-workflow.js";

// Errors
export { InvalidOrchestrationOptionsError, OuterLoopMismatchError, UnknownWorkflowError, UnknownWorkflowVersionError } from "./errors/orchestrator-errors.js";

// Orchestration (plan_workflow / run_workflow / start_workflow)
export {
  defaultMaxConcurrentSubRuns,
  runOrchestration,
  type OrchestrationResult,
  type OrchestratorOptions,
  type RunOrchestrationOptions,
  type SubRunRecord,
} from "./orchestration/run-orchestration.js";
export {
  planRunIdFor,
  subRunIdFor,
  type PlanWorkflowResult,
  type RunWorkflowToolResult,
  type StartWorkflowToolResult,
} from "./orchestration/orchestrator-tools.js";
export type { PlannedVersion } from "./orchestration/pipeline-context.js";

// Workflows as AI SDK tools
export { workflowTool, workflowToolRunId, type WorkflowToolOptions } from "./tools/workflow-tool.js";
