import { LittleWorkflowError } from "@little-stack/canonical";

/** Resuming a run with an input that differs from the one its `RunStarted` recorded. */
export class RunInputMismatchError extends LittleWorkflowError {
  constructor(options: { readonly runId: string; readonly storedDigest: string; readonly givenDigest: string }) {
    super(
      "runtime.run_input_mismatch",
      `Run ${options.runId} was started with a different input (recorded ${options.storedDigest}, given ${options.givenDigest}). Resume it with the exact input it started with, or start a new run id for the new input.`,
      { details: { ...options } },
    );
  }
}

/** Resuming a run with a workflow version other than the one it was started with. */
export class WorkflowVersionMismatchError extends LittleWorkflowError {
  constructor(options: { readonly runId: string; readonly storedVersionId: string; readonly givenVersionId: string }) {
    super(
      "runtime.workflow_version_mismatch",
      `Run ${options.runId} executes workflow version ${options.storedVersionId}, not ${options.givenVersionId}. Resume it with the version it started with, or start a new run id.`,
      { details: { ...options } },
    );
  }
}

/** The run's event log does not have the shape the runtime writes (a foreign or damaged log). */
export class RunLogCorruptError extends LittleWorkflowError {
  constructor(options: { readonly runId: string; readonly sequence: number; readonly problem: string }) {
    super(
      "runtime.run_log_corrupt",
      `The event log of run ${options.runId} cannot be replayed at sequence ${options.sequence}: ${options.problem}. The log was not written by this runtime or was edited; it is left untouched.`,
      { details: { ...options } },
    );
  }
}

/** A workflow version object whose id or hash does not match its LWIR. */
export class WorkflowVersionIntegrityError extends LittleWorkflowError {
  constructor(options: { readonly givenId: string; readonly computedId: string }) {
    super(
      "runtime.workflow_version_integrity",
      `The workflow version says its id is ${options.givenId} but its LWIR hashes to ${options.computedId}. Pass the object registerWorkflowVersion(lwir) returned, unmodified.`,
      { details: { ...options } },
    );
  }
}

/**
 * Resuming a run with other capabilities (tools, model slots, harness) than it started with.
 * Refused before anything is written, like a mismatched input: the run stays resumable and
 * continues once it is given the capabilities it was started with.
 */
export class RunCapabilityDriftError extends LittleWorkflowError {
  readonly changes: readonly string[];

  constructor(options: { readonly runId: string; readonly changes: readonly string[] }) {
    super(
      "runtime.capability_drift",
      `Run ${options.runId} was started with other capabilities: ${options.changes.join("; ")}. Nothing was written: resume it with the tools, model slots and harness it started with, or start a new run id to use the new ones.`,
      { details: { runId: options.runId, changes: [...options.changes] } },
    );
    this.changes = options.changes;
  }
}
