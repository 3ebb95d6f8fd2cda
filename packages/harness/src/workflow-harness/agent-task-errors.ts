import { LittleWorkflowError } from "@little-stack/canonical";
import type { ErrorEnvelope } from "../contract/error-envelope.js";

/** Findings one `submit_workflow` call got back. */
export type PlanRevision = {
  readonly revision: number;
  readonly findings: readonly { readonly code: string; readonly path: string; readonly message: string }[];
};

/** The planner used every allowed revision without submitting a valid LWIR. */
export class PlanRevisionsExhaustedError extends LittleWorkflowError {
  readonly revisions: readonly PlanRevision[];

  constructor(options: { readonly maxWorkflowRevisions: number; readonly revisions: readonly PlanRevision[] }) {
    const last = options.revisions.at(-1);
    const lastFindings = (last?.findings ?? []).slice(0, 5).map((finding) => `${finding.path} ${finding.code}`).join("; ");
    super(
      "harness.plan_revisions_exhausted",
      `The planner submitted ${options.revisions.length} workflow revision(s) and none was valid (maxWorkflowRevisions is ${options.maxWorkflowRevisions}); last findings: ${lastFindings || "none"}. Raise maxWorkflowRevisions, or give the planner a clearer system prompt or skills.`,
      { details: { ...options } },
    );
    this.revisions = options.revisions;
  }
}

/** The planner's agent loop ended (no more tool calls, or the step cap) without a submission. */
export class PlanNotSubmittedError extends LittleWorkflowError {
  readonly revisions: readonly PlanRevision[];

  constructor(options: { readonly modelSteps: number; readonly revisions: readonly PlanRevision[] }) {
    super(
      "harness.plan_not_submitted",
      `The planner stopped after ${options.modelSteps} model call(s) without submitting a valid workflow through submit_workflow (${options.revisions.length} invalid submission(s)). Its system prompt must lead it to call submit_workflow.`,
      { details: { ...options } },
    );
    this.revisions = options.revisions;
  }
}

/** One `try_fix` the fixer made and why it failed. */
export type FixAttempt = { readonly attempt: number; readonly error: ErrorEnvelope };

/** The fixer made every allowed try (or stopped) without a repaired source that runs and matches the schema. */
export class FixerExhaustedError extends LittleWorkflowError {
  readonly attempts: readonly FixAttempt[];

  constructor(options: { readonly stepId: string; readonly maxAttempts: number; readonly attempts: readonly FixAttempt[] }) {
    const last = options.attempts.at(-1);
    super(
      "harness.fixer_exhausted",
      `The fixer of code.run step "${options.stepId}" did not produce a working source after ${options.attempts.length} try(s) (maxAttempts ${options.maxAttempts})${last === undefined ? "" : `; last error: ${last.error.name}: ${last.error.message}`}.`,
      { details: { ...options } },
    );
    this.attempts = options.attempts;
  }
}
