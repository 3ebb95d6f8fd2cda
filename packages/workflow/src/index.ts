// Public surface of @little-stack/workflow: an explicit list of named exports.
// Everything a user of seed 000's example needs comes from here; nothing else is re-exported.

// Authoring
export {
  defineWorkflow,
  model,
  skill,
  WorkflowDefinitionError,
  type DefineWorkflowOptions,
  type ModelOptions,
  type ModelSlotSpec,
  type PlannerOptions,
  type SkillReference,
  type SuperviseDecision,
  type SuperviseRequest,
  type WorkerOptions,
  type WorkflowDefinition,
  type WorkflowInput,
  type WorkflowOutput,
} from "@little-stack/authoring";

// Tools
export { createToolRegistry, mergeToolRegistries, type ToolRegistry } from "@little-stack/harness";

// Worlds
export { localWorld, memoryWorld, type EventEnvelope, type LocalWorldOptions, type World } from "@little-stack/local-world";

// Running, orchestrating, workflows as tools
export {
  runOrchestration,
  runWorkflow,
  workflowTool,
  InvalidOrchestrationOptionsError,
  OuterLoopMismatchError,
  UnknownWorkflowError,
  UnknownWorkflowVersionError,
  type OrchestrationResult,
  type OrchestratorOptions,
  type OuterLoopCycleCompletedPayload,
  type OuterLoopManifest,
  type PlanWorkflowResult,
  type RunOrchestrationOptions,
  type RunWorkflowOptions,
  type RunWorkflowToolResult,
  type StartWorkflowToolResult,
  type SubRunRecord,
  type WorkflowToolOptions,
} from "@little-stack/orchestrator";
export { replayRun, RunFailedError, type FailedRunResult, type RunFailedCauseCode, type RunResult, type RunState } from "@little-stack/runtime";
export type { UsageTotals } from "@little-stack/models";

// Errors users meet at the boundary
export { LittleWorkflowError } from "@little-stack/canonical";
export { CapabilityDriftError } from "@little-stack/harness";
export { RunLockedError } from "@little-stack/local-world";
export { RunInputMismatchError } from "@little-stack/runtime";
