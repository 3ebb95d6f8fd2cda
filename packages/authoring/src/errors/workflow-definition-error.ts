import { LittleWorkflowError } from "@little-stack/canonical";

/** The kinds of definition-time mistakes, one stable code each. */
export type WorkflowDefinitionErrorCode =
  | "definition.invalid_field"
  | "definition.invalid_schema"
  | "definition.live_validator"
  | "definition.unknown_tool"
  | "definition.unknown_model"
  | "definition.missing_planner_model"
  | "definition.invalid_model"
  | "definition.duplicate_model_slot"
  | "definition.invalid_plan"
  /** `output` is an AI SDK Output whose schema has not resolved yet: await `workflowDefinitionReady`. */
  | "definition.output_pending";

/**
 * A mistake in the options given to `defineWorkflow` (or `model`). Thrown at definition time so
 * that nothing is compiled or run from a definition that cannot work. `field` is the path of the
 * offending option (`planner.model`, `tools[2]`, `input`); the message says how to fix it.
 */
export class WorkflowDefinitionError extends LittleWorkflowError {
  readonly field: string;
  readonly workflowId: string | undefined;

  constructor(options: {
    readonly code: WorkflowDefinitionErrorCode;
    readonly field: string;
    readonly problem: string;
    readonly fix: string;
    readonly workflowId?: string;
    readonly cause?: unknown;
    readonly details?: Readonly<Record<string, unknown>>;
  }) {
    const where = options.workflowId === undefined ? "defineWorkflow" : `defineWorkflow("${options.workflowId}")`;
    super(options.code, `${where}: ${options.field} ${options.problem}. ${options.fix}`, {
      ...(options.cause === undefined ? {} : { cause: options.cause }),
      details: { field: options.field, ...(options.workflowId === undefined ? {} : { workflowId: options.workflowId }), ...options.details },
    });
    this.field = options.field;
    this.workflowId = options.workflowId;
  }
}
