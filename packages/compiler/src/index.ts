// Public surface of @little-stack/compiler: an explicit list of named exports.
export { compileWorkflow, type CompiledWorkflow, type CompileWorkflowOptions } from "./compile-workflow.js";
export { bindingFindings } from "./binding/binding-pass.js";
export { BINDING_FINDING_CODES, type BindingFindingCode, type BindingTarget } from "./binding/binding-target.js";
export {
  CompileInputMismatchError,
  InvalidCompileOptionsError,
  PlannerValidationExhaustedError,
  RegisteredVersionMismatchError,
  WorkflowInputValidationError,
  WorkflowMissingToolError,
  type CompileFailureCauseCode,
  type PlannerRevisionFindings,
} from "./errors/compile-errors.js";
export {
  compileEventTypes,
  type CompileEventType,
  type OrchestrationRequest,
  type OrchestrationRequestedPayload,
  type ValidationSource,
  type WorkflowValidationFailedPayload,
  type WorkflowValidationSucceededPayload,
  type WorkflowVersionRegisteredPayload,
} from "./events/compile-event-types.js";
export {
  buildCompilerLock,
  lockValidator,
  type CapabilityManifest,
  type CompilerLock,
  type LockedModelSlot,
  type LockedTool,
} from "./lock/compiler-lock.js";
export { jsonDiff } from "./manifest/json-diff.js";
export { computePlannerManifest, outerLoopContextHash, plannerBashCapabilitiesHash, plannerBashCwd } from "./manifest/planner-manifest.js";
export { describeOnlyTools, preparePlannerSession, type PlannerSessionParts } from "./planner/planner-session-context.js";
export {
  createWorkflowDefinitionSnapshot,
  workflowDefinitionHash,
  type CompilerWorkflowDefinitionSnapshot,
} from "./snapshot/create-workflow-definition-snapshot.js";
export { resolveWorkflowTools } from "./snapshot/resolve-workflow-tools.js";
export { CapabilityDriftError } from "@little-stack/harness";
