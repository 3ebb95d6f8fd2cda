import { LittleWorkflowError } from "@little-stack/canonical";
import { toErrorEnvelope } from "@little-stack/harness";
import { terminalCauseCodes, type RunFailedCauseCode } from "../errors/run-failed-error.js";
import type { StepErrorPayload } from "../events/runtime-event-types.js";

/**
 * Internal: a step (or the scheduler) could not go on. Carries what `RunFailed` records; thrown
 * up to the scope that handles it (a parallel group under all_settled, else the run).
 */
export class StepFailure extends Error {
  constructor(
    readonly causeCode: RunFailedCauseCode,
    readonly failedStepPath: string | undefined,
    readonly error: StepErrorPayload,
  ) {
    super(error.message);
    this.name = "StepFailure";
  }
}

/** The error envelope of a failed attempt, with its cause and whether retrying may help. */
export function stepErrorOf(error: unknown, causeCode: RunFailedCauseCode): StepErrorPayload {
  const retriable = !terminalCauseCodes.has(causeCode) && !nonRetriableCodes.has(LittleWorkflowError.is(error) ? error.code : "");
  // Name and message bounded as in harness events (toErrorEnvelope): this text goes into
  // StepFailed and RunFailed, every resume reads it back, and the CLI prints it.
  const { name, message, code } = toErrorEnvelope(error);
  return { name, message, ...(code === undefined ? {} : { code }), causeCode, retriable };
}

// Failures that repeat identically on every attempt: retrying only burns time.
const nonRetriableCodes: ReadonlySet<string> = new Set(["replay_divergence", "harness.tool_input_invalid"]);

const configCodes: ReadonlySet<string> = new Set([
  "runtime.missing_model_slot",
  "harness.unknown_tool",
  "harness.tool_not_executable",
  "harness.invalid_session_key",
  "harness.session_scope_mismatch",
]);

/** Maps something a harness threw to a run failure cause. */
export function causeOfHarnessError(error: unknown): RunFailedCauseCode {
  if (error instanceof StepFailure) return error.causeCode;
  if (LittleWorkflowError.is(error)) {
    if (error.code === "capability_drift" || error.code === "harness.capability_drift") return "capability_drift";
    if (configCodes.has(error.code)) return "runtime_config_error";
  }
  return "step_failed";
}
