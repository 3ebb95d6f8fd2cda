import { LittleWorkflowError } from "@little-stack/canonical";

/** runWorkflow / runOrchestration / workflowTool was given options it cannot use. */
export class InvalidOrchestrationOptionsError extends LittleWorkflowError {
  readonly field: string;

  constructor(options: { readonly call: string; readonly field: string; readonly problem: string; readonly fix: string }) {
    super("orchestrator.invalid_options", `${options.call}: ${options.field} ${options.problem}. ${options.fix}`, { details: { call: options.call, field: options.field } });
    this.field = options.field;
  }
}

/** A tool call named a workflow that is not in the orchestration's `workflows`. */
export class UnknownWorkflowError extends LittleWorkflowError {
  constructor(options: { readonly workflowId: string; readonly available: readonly string[] }) {
    super(
      "orchestrator.unknown_workflow",
      `No workflow "${options.workflowId}" in this orchestration (available: ${options.available.join(", ") || "none"}). Call plan_workflow or start_workflow with one of the available ids.`,
      { details: { ...options } },
    );
  }
}

/** run_workflow named a workflow version that plan_workflow never returned in this pipeline run. */
export class UnknownWorkflowVersionError extends LittleWorkflowError {
  constructor(options: { readonly workflowVersionId: string; readonly known: readonly string[] }) {
    super(
      "orchestrator.unknown_workflow_version",
      `Workflow version "${options.workflowVersionId}" was not planned in this pipeline run (planned: ${options.known.join(", ") || "none"}). Call plan_workflow first and pass the workflowVersionId it returns.`,
      { details: { ...options } },
    );
  }
}

/** The outer-loop manifest on disk belongs to another workflow or input than this call. */
export class OuterLoopMismatchError extends LittleWorkflowError {
  constructor(options: { readonly outerLoopId: string; readonly field: string; readonly stored: unknown; readonly given: unknown }) {
    super(
      "orchestrator.outer_loop_mismatch",
      `Outer loop ${options.outerLoopId} was started with a different ${options.field} (stored ${JSON.stringify(options.stored)}, given ${JSON.stringify(options.given)}). Use a new run id for a new workflow or input.`,
      { details: { ...options } },
    );
  }
}
