// Public surface of @little-stack/workflow: an explicit list of named exports.
// Everything a user of seed 000's example needs comes from here; nothing else is re-exported.

// Authoring
export {
  defineWorkflow,
  model,
  skill,
  WorkflowDefinitionError,
  workflowDefinitionReady,
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
  streamOrchestration,
  streamWorkflow,
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
  type StreamOptions,
  type SubRunRecord,
  type WorkflowStream,
  type WorkflowToolOptions,
} from "@little-stack/orchestrator";
export { replayRun, RunFailedError, type FailedRunResult, type RunFailedCauseCode, type RunResult, type RunState } from "@little-stack/runtime";
export type { CommittedRunEvent, ModelDeltaRunEvent, RunEvent, RunEventListener } from "@little-stack/runtime";
export type { UsageTotals } from "@little-stack/models";

// Plans: the LWIR a fixed plan is, and its validator
export {
  assertValidLwir,
  validateLwir,
  LWIR_FINDING_CODES,
  type LwirDocument,
  type LwirFinding,
  type LwirFindingCode,
  type LwirStep,
  type ValidationResult,
} from "@little-stack/lwir";

// A custom harness (the whole contract is in "@little-stack/workflow/internals")
export type { Harness } from "@little-stack/harness";

// Errors users meet at the boundary (each `X.is(error)` narrows to X, across package copies)
export { LittleWorkflowError } from "@little-stack/canonical";
export { LwirValidationError, OutputModeError, SchemaNormalizationError } from "@little-stack/lwir";
export {
  CapabilityDriftError,
  DuplicateToolError,
  HarnessContextError,
  InvalidToolNameError,
  NotAToolError,
  ReplayDivergenceError,
  ToolInputValidationError,
  ToolNotExecutableError,
  UnknownToolError,
} from "@little-stack/harness";
export { RunLockedError } from "@little-stack/local-world";
export {
  InvalidRunOptionsError,
  MissingModelSlotError,
  RunCapabilityDriftError,
  RunInputMismatchError,
  RunLogCorruptError,
  WorkflowVersionMismatchError,
} from "@little-stack/runtime";
