import { LittleWorkflowError } from "@little-stack/canonical";

/**
 * Errors of the default workflowHarness about what it was asked to do: a task or context it
 * cannot serve, a step type that is not the harness's job, a tool the plan does not permit.
 */
export class WorkflowHarnessError extends LittleWorkflowError {
  constructor(code: string, message: string, details: Record<string, unknown> = {}) {
    super(code, message, { details });
  }
}

/** A `parallel` step reached the harness: the runtime schedules parallel groups itself. */
export class ParallelStepNotExecutableError extends WorkflowHarnessError {
  constructor(options: { readonly stepId: string }) {
    super(
      "harness.parallel_not_executable",
      `Step "${options.stepId}" is a parallel step: parallel is the runtime's job (it schedules the branches and sends each body step to the harness), never the harness's.`,
      { ...options },
    );
  }
}

/** A tool.call / code.run step asked for a tool the LWIR's `permissions.tools` (or ctx.tools) does not grant. */
export class ToolNotPermittedError extends WorkflowHarnessError {
  constructor(options: { readonly stepId: string; readonly toolName: string; readonly allowedTools: readonly string[] }) {
    super(
      "harness.tool_not_permitted",
      `Step "${options.stepId}" calls tool "${options.toolName}", which is not granted: it must be listed in the workflow's permissions.tools and provided in ctx.tools (granted: ${options.allowedTools.length === 0 ? "none" : options.allowedTools.join(", ")}).`,
      { ...options },
    );
  }
}

/** A fix_step task for a step the fixer cannot repair (only code.run has source to fix). */
export class FixStepUnsupportedError extends WorkflowHarnessError {
  constructor(options: { readonly stepId: string; readonly uses: string }) {
    super(
      "harness.fix_step_unsupported",
      `Step "${options.stepId}" is a ${options.uses} step; only code.run steps can be fixed (onFailure.fixer is only valid on code.run).`,
      { ...options },
    );
  }
}

/** An option of createWorkflowHarness (or of ctx.planning) is out of range. */
export class WorkflowHarnessOptionError extends WorkflowHarnessError {
  constructor(options: { readonly option: string; readonly value: unknown; readonly expected: string }) {
    super("harness.invalid_workflow_harness_option", `workflowHarness option ${options.option} must be ${options.expected}, got ${JSON.stringify(options.value) ?? String(options.value)}.`, {
      option: options.option,
      expected: options.expected,
    });
  }
}
