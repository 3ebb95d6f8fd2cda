// Public surface of @little-stack/runtime: an explicit list of named exports.

// Execution
export { executeWorkflowVersion, type ExecuteWorkflowVersionOptions, type ModelSlotValue } from "./execution/execute-workflow-version.js";
export type { RunResult } from "./execution/run-result.js";
export { completedRunResult } from "./execution/completed-run-result.js";
export type { WorkflowVersionLike } from "./execution/workflow-version.js";
export type { RuntimeHarnessContext } from "./execution/harness-dispatch.js";
export { parseTimeout } from "./execution/parse-timeout.js";
export { branchPathFor, encodeItemKey, stepPathFor } from "./execution/step-path.js";

// Run state and replay
export { RunStateFolder, type RunStateFolderOptions } from "./run-state/run-state-folder.js";
export { materializeRunState } from "./run-state/materialize-run-state.js";
export { replayRun } from "./run-state/replay-run.js";
// A run log's model calls with their whole prompts (the harness records later turns after a prompt
// prefix): re-exported for readers of run logs that do not depend on the harness (the inspector).
export { resolveModelCallRequests } from "@little-stack/harness";
export type {
  BranchState,
  ParallelGroupState,
  RunFailureState,
  RunState,
  RunStatus,
  StepState,
  StepStatus,
} from "./run-state/run-state.js";

// Events
export { inlineOutputLimit } from "./events/runtime-event-types.js";
export type * from "./events/runtime-event-types.js";

// Errors
export {
  RunFailedError,
  runFailedCauseCodes,
  terminalCauseCodes,
  type FailedRunResult,
  type RunFailedCauseCode,
  type RunFailedErrorOptions,
} from "./errors/run-failed-error.js";
export {
  RunCapabilityDriftError,
  RunInputMismatchError,
  RunLogCorruptError,
  WorkflowVersionIntegrityError,
  WorkflowVersionMismatchError,
} from "./errors/run-integrity-errors.js";
export { InvalidRunOptionsError, MissingModelSlotError, SchedulingDeadlockError } from "./errors/runtime-config-errors.js";

// Watching a run live
export type { CommittedRunEvent, ModelDeltaRunEvent, RunEvent, RunEventListener } from "./events/run-event.js";
export { RunEventDispatcher } from "./events/run-event-dispatcher.js";
export { defaultRunEventBufferSize, RunEventStream, type RunEventSource } from "./events/run-event-stream.js";
