import { LittleWorkflowError } from "@little-stack/canonical";
import type { SchemaValidationIssue } from "@little-stack/lwir";

/** The `RunFailedError` cause code a compile failure maps to (runtime.md). */
export type CompileFailureCauseCode = "input_schema_error" | "planner_validation_exhausted" | "capability_drift";

/** The input given to a compile does not match the workflow's input schema. */
export class WorkflowInputValidationError extends LittleWorkflowError {
  readonly causeCode = "input_schema_error" as const;
  readonly workflowId: string;
  readonly issues: readonly SchemaValidationIssue[];

  constructor(options: { readonly workflowId: string; readonly issues: readonly SchemaValidationIssue[] }) {
    const lines = options.issues.slice(0, 10).map((issue) => `  ${issue.path}: ${issue.message}`);
    const more = options.issues.length > 10 ? `\n  … and ${options.issues.length - 10} more` : "";
    super(
      "input_schema_error",
      `The input of workflow "${options.workflowId}" does not match its input schema:\n${lines.join("\n")}${more}\nFix the input (or the workflow's input schema); nothing was planned or run.`,
      { details: { workflowId: options.workflowId, issues: options.issues } },
    );
    this.workflowId = options.workflowId;
    this.issues = options.issues;
  }
}

/** A name in the workflow's `tools` is in neither the run's registry nor the inline tools. */
export class WorkflowMissingToolError extends LittleWorkflowError {
  readonly missing: readonly string[];

  constructor(options: { readonly workflowId: string; readonly missing: readonly string[]; readonly available: readonly string[] }) {
    super(
      "compile.missing_tool",
      `Workflow "${options.workflowId}" lists the tool(s) ${options.missing.map((name) => `"${name}"`).join(", ")} but the registry has only ${options.available.length === 0 ? "no tools" : options.available.join(", ")}. Pass a registry with these tools (compileWorkflow(…, { tools })) or give them inline in defineWorkflow({ tools: { … } }).`,
      { details: { ...options } },
    );
    this.missing = options.missing;
  }
}

/** Findings one revision of the planner got back. */
export type PlannerRevisionFindings = {
  readonly revision: number;
  readonly findings: readonly { readonly code: string; readonly path: string; readonly message: string }[];
};

/**
 * The planner did not produce a valid LWIR within `maxWorkflowRevisions` revisions (or stopped
 * without submitting one). Every revision's findings are attached, in order.
 */
export class PlannerValidationExhaustedError extends LittleWorkflowError {
  readonly causeCode = "planner_validation_exhausted" as const;
  readonly runId: string;
  readonly revisions: readonly PlannerRevisionFindings[];

  constructor(options: {
    readonly runId: string;
    readonly workflowId: string;
    readonly maxWorkflowRevisions: number;
    readonly revisions: readonly PlannerRevisionFindings[];
    /** `fixed_plan`: the definition's fixed plan does not bind to it (no planner is involved; nothing is retried). */
    readonly reason: "revisions_exhausted" | "not_submitted" | "fixed_plan";
    readonly cause?: unknown;
  }) {
    const summary = options.revisions
      .map((revision) => `  revision ${revision.revision}: ${revision.findings.slice(0, 5).map((finding) => `${finding.path} ${finding.code}`).join("; ") || "no findings"}`)
      .join("\n");
    const what =
      options.reason === "fixed_plan"
        ? "the fixed plan given to defineWorkflow({ plan }) does not bind to the definition"
        : options.reason === "not_submitted"
          ? `the planner stopped without submitting a valid LWIR (${options.revisions.length} invalid submission(s))`
          : `the planner used all ${options.maxWorkflowRevisions} workflow revision(s) without a valid LWIR`;
    const advice =
      options.reason === "fixed_plan"
        ? "Fix the plan (each line names the field and the rule); no planner model was involved."
        : "Raise planner.maxWorkflowRevisions, sharpen planner.system, or give the planner skills.";
    const lines =
      options.reason === "fixed_plan"
        ? options.revisions.flatMap((revision) => revision.findings.slice(0, 10).map((finding) => `  ${finding.path} ${finding.code}: ${finding.message}`)).join("\n")
        : summary;
    super(
      "planner_validation_exhausted",
      `Compiling workflow "${options.workflowId}" (run ${options.runId}) failed: ${what}.\n${lines}\n${advice}`,
      { ...(options.cause === undefined ? {} : { cause: options.cause }), details: { runId: options.runId, workflowId: options.workflowId, maxWorkflowRevisions: options.maxWorkflowRevisions, revisions: options.revisions, reason: options.reason } },
    );
    this.runId = options.runId;
    this.revisions = options.revisions;
  }
}

/** The run was compiled before with a different input: a run id stands for one input. */
export class CompileInputMismatchError extends LittleWorkflowError {
  constructor(options: { readonly runId: string; readonly storedInputHash: string; readonly givenInputHash: string }) {
    super(
      "compile.input_mismatch",
      `Run ${options.runId} was compiled for the input ${options.storedInputHash}, but this compile got ${options.givenInputHash}. Use a new run id for a new input.`,
      { details: { ...options } },
    );
  }
}

/** compileWorkflow was called with options it cannot use. */
export class InvalidCompileOptionsError extends LittleWorkflowError {
  constructor(field: string, problem: string) {
    super("compile.invalid_options", `compileWorkflow: ${field} ${problem}.`, { details: { field } });
  }
}

/**
 * The run's log has a registered version the compiler cannot return: the LWIR no longer hashes to
 * the recorded id (the log was edited), or the run was not compiled from a definition (a direct
 * LWIR run).
 */
export class RegisteredVersionMismatchError extends LittleWorkflowError {
  constructor(options: { readonly runId: string; readonly problem: string }) {
    super("compile.registered_version_mismatch", `Run ${options.runId} cannot be compiled: ${options.problem}. Use a new run id.`, { details: { ...options } });
  }
}
