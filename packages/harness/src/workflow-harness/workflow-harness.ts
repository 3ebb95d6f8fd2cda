import type { SandboxLimits } from "@little-stack/sandbox";
import type { Harness, HarnessContext, HarnessResult, HarnessTask } from "../contract/harness.js";
import { runExecuteStepTask } from "./execute-step-task.js";
import { runFixStepTask } from "./fix-step-task.js";
import { runOrchestrateTask } from "./orchestrate-task.js";
import { runPlanTask } from "./plan-task.js";
import type { WorkflowHarnessContext } from "./workflow-harness-context.js";
import { WorkflowHarnessOptionError } from "./workflow-harness-errors.js";

function positiveInteger(option: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new WorkflowHarnessOptionError({ option, value, expected: "an integer >= 1" });
  return value;
}

export type WorkflowHarnessOptions = {
  /** Names the harness in manifests (`harnessId`). Default `workflowHarness@0.2.0`. */
  readonly id?: string;
  /** Model calls one agent-loop session may make (plan, orchestrate, fix_step). Default 40. */
  readonly maxAgentSteps?: number;
  /** `submit_workflow` calls a plan session gets unless ctx.planning says otherwise. Default 5. */
  readonly maxWorkflowRevisions?: number;
  /** Fixer tries when the step's onFailure.fixer has no maxAttempts. Default 3. */
  readonly defaultFixerMaxAttempts?: number;
  /** Sandbox limits for code.run and try_fix (defaults: @little-stack/sandbox's). */
  readonly sandboxLimits?: Partial<SandboxLimits>;
};

export type WorkflowHarness = Harness & { readonly id: string };

/** The default harness with options. `workflowHarness` is this with the defaults. */
export function createWorkflowHarness(options: WorkflowHarnessOptions = {}): WorkflowHarness {
  const maxSteps = positiveInteger("maxAgentSteps", options.maxAgentSteps ?? 40);
  const maxWorkflowRevisions = positiveInteger("maxWorkflowRevisions", options.maxWorkflowRevisions ?? 5);
  const defaultFixerMaxAttempts = positiveInteger("defaultFixerMaxAttempts", options.defaultFixerMaxAttempts ?? 3);
  const sandboxLimits = options.sandboxLimits === undefined ? {} : { sandboxLimits: options.sandboxLimits };
  return {
    id: options.id ?? "workflowHarness@0.2.0",
    async run(task: HarnessTask, baseCtx: HarnessContext): Promise<HarnessResult> {
      const ctx = baseCtx as WorkflowHarnessContext;
      switch (task.kind) {
        case "plan":
          return runPlanTask({ task, ctx, maxSteps, defaultMaxWorkflowRevisions: maxWorkflowRevisions, ...sandboxLimits });
        case "orchestrate":
          return runOrchestrateTask({ task, ctx, maxSteps });
        case "execute_step":
          return runExecuteStepTask({ task, ctx, ...sandboxLimits });
        case "fix_step":
          return runFixStepTask({ task, ctx, maxSteps, defaultMaxAttempts: defaultFixerMaxAttempts, ...sandboxLimits });
      }
    },
  };
}

/** The default harness (seed 003): execute_step, fix_step, plan and orchestrate. */
export const workflowHarness: WorkflowHarness = createWorkflowHarness();
