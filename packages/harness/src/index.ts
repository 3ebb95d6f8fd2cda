// Public surface of @little-stack/harness: an explicit list of named exports.

// Contract
export type {
  ArtifactRef,
  ExecuteStepTask,
  FixStepTask,
  Harness,
  HarnessContext,
  HarnessResult,
  HarnessRole,
  HarnessScope,
  HarnessTask,
  HarnessTaskKind,
  OrchestrateTask,
  PlanTask,
  ResolvedModel,
  RunId,
  WorkflowHarnessDurabilitySink,
  WorkflowHarnessTraceSink,
} from "./contract/harness.js";
export { harnessRoles, harnessTaskKinds } from "./contract/harness.js";
export { requireManifest, sessionKeyFor, stepPathOf } from "./contract/session-identity.js";
export { HarnessContextError } from "./contract/harness-context-error.js";
export { installedAiSdkVersion, supportedAiSdk, unsupportedAiSdkModel } from "./contract/ai-sdk-support.js";
export { toErrorEnvelope, type ErrorEnvelope } from "./contract/error-envelope.js";
export type { LwirStep, LwirStepUses } from "./contract/lwir-step.js";
export type {
  BashTool,
  HarnessRuntimeMount,
  MemoryMount,
  MountMode,
  ScratchMount,
  SkillDescriptor,
  WorkflowBashCapabilities,
} from "./contract/mounts.js";
export type { FixerManifest, HarnessManifest, OrchestratorManifest, PlannerManifest, WorkerManifest } from "./contract/manifests.js";
export { hashHarnessManifest } from "./contract/hash-harness-manifest.js";
export { sessionShellCwd, shellCapabilitiesHash } from "./contract/shell-capabilities-hash.js";
export type { MemoryAccess, OuterLoopContext, WorkflowDefinitionSnapshot } from "./contract/workflow-definition-snapshot.js";

// Events
export {
  harnessEventTypes,
  redoableHarnessEventTypes,
  type ExecuteStepStartedEvent,
  type ExecuteStepStartedPayload,
  type ExecuteStepSucceededEvent,
  type ExecuteStepSucceededPayload,
  type ExecuteStepUses,
  type HarnessEvent,
  type HarnessEventEnvelope,
  type HarnessEventPayloads,
  type HarnessEventType,
  type ModelCallUsage,
  type ModelCalledEvent,
  type ModelCalledPayload,
  type ModelFailedEvent,
  type ModelFailedPayload,
  type ModelPromptPrefix,
  type ModelRequest,
  type ModelRespondedEvent,
  type ModelRespondedPayload,
  type ModelResponse,
  type RecordedMessage,
  type SessionCompletedEvent,
  type SessionCompletedPayload,
  type SessionFailedEvent,
  type SessionFailedPayload,
  type SessionStartedEvent,
  type SessionStartedPayload,
  type SessionUsage,
  type ToolCallFailedEvent,
  type ToolCallFailedPayload,
  type ToolCallRequest,
  type ToolCallStartedEvent,
  type ToolCallStartedPayload,
  type ToolCallSucceededEvent,
  type ToolCallSucceededPayload,
  type ToolCaller,
  type ToolReference,
} from "./events/harness-event-types.js";
export { harnessEventSinkFromWorld, type EventStoreLike, type HarnessEventSink, type ModelDelta } from "./events/harness-event-sink.js";
export { createHarnessEventRecorder, type HarnessEventRecorder } from "./events/harness-event-recorder.js";
export { validateHarnessEvent } from "./events/validate-harness-event.js";
export { hashModelRequest } from "./events/hash-model-request.js";
export { resolveModelCallRequests } from "./events/resolve-model-call-requests.js";
export { createEventEnvelope } from "./events/create-event-envelope.js";
export { createMemoryHarnessEventSink, type MemoryHarnessEventSink } from "./events/memory-harness-event-sink.js";

// Durable agent loop
export { codeToolCallId, harnessSessionId, modelCallId, modelToolCallId } from "./agent/call-ids.js";
export { openHarnessSession, type HarnessSession, type OpenHarnessSessionOptions } from "./agent/harness-session.js";
export { durableGenerateText, durableStreamText, runHarnessSession } from "./agent/durable-generate.js";
export type { SessionStats } from "./agent/session-core.js";
export { recorderForContext } from "./agent/recorder-for-context.js";
export { openTaskSession } from "./agent/open-task-session.js";

// Tool registry
export {
  createToolRegistry,
  mergeToolRegistries,
  type ToolDescriptor,
  type ToolRegistry,
  type ToolRegistrySnapshot,
} from "./tools/tool-registry.js";
export { executeRegisteredTool } from "./tools/execute-registered-tool.js";

// Errors
export {
  CostOnEventError,
  HarnessEventFieldError,
  HarnessEventNotJsonError,
  HarnessEventValidationError,
  InconsistentUsageError,
  InvalidHarnessRoleError,
  InvalidHarnessTaskKindError,
  ManifestHashMismatchError,
  ModelPromptPrefixError,
  PromptHashMismatchError,
  ToolCallTurnError,
  UnknownHarnessEventTypeError,
} from "./errors/harness-event-errors.js";
export { CapabilityDriftError, ReplayDivergenceError } from "./errors/replay-errors.js";
export { HarnessSessionError, RecordedToolCallError, ToolResultNotJsonError } from "./errors/harness-session-errors.js";
export {
  DuplicateToolError,
  InvalidToolNameError,
  NotAToolError,
  ToolInputValidationError,
  ToolNotExecutableError,
  UnknownToolError,
} from "./errors/tool-registry-errors.js";

// Bash tool (just-bash over memory/scratch mounts and staged skills)
export {
  createBashTool,
  type BashExecuteInput,
  type BashExecuteResult,
  type BashSkillStaging,
  type BashToolLimits,
  type CreateBashToolOptions,
  type HarnessBashTool,
} from "./bash/bash-tool.js";
export { bashToolCapabilities, bashToolDefinition } from "./bash/bash-tool-definition.js";
export { BashToolConfigError } from "./bash/bash-tool-config-error.js";
export { bashCapabilityProblem, bashNetworkConfig, bashNetworkMethods, checkBashCapabilities } from "./bash/bash-capabilities.js";

// Default workflowHarness (execute_step, fix_step, plan, orchestrate)
export {
  createWorkflowHarness,
  workflowHarness,
  type WorkflowHarness,
  type WorkflowHarnessOptions,
} from "./workflow-harness/workflow-harness.js";
export { type ExtraWorkflowValidation, type WorkflowHarnessContext } from "./workflow-harness/workflow-harness-context.js";
export { assembleSystemPrompt, type PromptToolDescription, type SystemPromptParts } from "./workflow-harness/assemble-system-prompt.js";
export { fixerAddendum, orchestratorAddendum, plannerAddendum } from "./workflow-harness/role-addenda.js";
export { outputSpecForMode, type OutputSpec } from "./workflow-harness/output-spec-for-mode.js";
export { parseModelAnswer, type ParsedModelAnswer } from "./workflow-harness/parse-model-answer.js";
export { describeExpectedAnswer } from "./workflow-harness/answer-format.js";
export { schemaSupportOf, type SchemaSupport } from "./workflow-harness/schema-support.js";
export { outputModeMismatches } from "./workflow-harness/output-mode-mismatches.js";
export type { CheckWorkflowResult, SubmitWorkflowResult } from "./workflow-harness/plan-task.js";
export type { TestCodeResult } from "./workflow-harness/test-code-tool.js";
export { builtinPlannerSkills } from "./workflow-harness/builtin-skills.js";
export { lwirCard } from "./workflow-harness/lwir-card.js";
export type { TryFixResult } from "./workflow-harness/fix-step-task.js";
export {
  FixStepUnsupportedError,
  ParallelStepNotExecutableError,
  ToolNotPermittedError,
  WorkflowHarnessError,
  WorkflowHarnessOptionError,
} from "./workflow-harness/workflow-harness-errors.js";
export { AiOutputSchemaError, CodeOutputSchemaError, type OutputMismatch } from "./workflow-harness/output-schema-errors.js";
export {
  FixerExhaustedError,
  PlanNotSubmittedError,
  PlanRevisionsExhaustedError,
  type FixAttempt,
  type PlanRevision,
} from "./workflow-harness/agent-task-errors.js";
