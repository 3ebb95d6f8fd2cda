import type { ExpressionContext, LwirFinding } from "@little-stack/lwir";
import type { HarnessContext, HarnessTask } from "../contract/harness.js";
import type { HarnessManifest } from "../contract/manifests.js";
import { WorkflowHarnessContextError } from "./workflow-harness-errors.js";

/** An extra validation pass the compiler runs on a submitted LWIR (its binding pass). */
export type ExtraWorkflowValidation = (lwir: unknown) => readonly LwirFinding[] | Promise<readonly LwirFinding[]>;

/**
 * What the default workflowHarness reads beyond seed 003's `HarnessContext`. Every field is
 * optional in the type so that a plain `HarnessContext` is accepted; `manifest` is required at run
 * time (a durable session records it and compares it on resume).
 */
export type WorkflowHarnessContext = HarnessContext & {
  /** The session's manifest (Planner/Orchestrator/Worker/FixerManifest), recorded in `harness.session.started`. */
  readonly manifest?: HarnessManifest;
  /**
   * Names the durable session within the run; must be the same on resume. Default: `plan`,
   * `orchestrate`, `step:<stepPath>@attempt_1`, `fix:<stepPath>@attempt_1`. The runtime passes
   * `step:<stepPath>@attempt_<n>` so that each attempt is its own session.
   */
  readonly sessionKey?: string;
  /** The step path a fix_step task works for (execute_step tasks carry it in `stepContext`). Default: the step id. */
  readonly stepPath?: string;
  /**
   * When present, `ai.generate` resolves `with.prompt` / `with.system` and `decision` evaluates
   * `with.cases[].when` against it. When absent, the step is taken as already resolved (the
   * runtime resolves `with` before dispatching): a prompt is sent as is, and each `when` is
   * read as its value. Never pass both a resolved step and this context: resolved text from the
   * input that happens to contain `{{` would be evaluated again.
   */
  readonly expressionContext?: ExpressionContext;
  /**
   * The LWIR's `permissions`. When present, tool.call and code.run reach only tools in
   * `permissions.tools` ∩ ctx.tools; when absent, ctx.tools is taken as already narrowed to
   * `permissions.tools` (what the runtime does).
   */
  readonly permissions?: { readonly tools?: readonly string[] };
  /** Plan tasks: revision cap, the compiler's completion and its extra (binding) validation. */
  readonly planning?: {
    /** How many `submit_workflow` calls the planner gets (default: the harness option, 5). */
    readonly maxWorkflowRevisions?: number;
    readonly validateWorkflow?: ExtraWorkflowValidation;
    /**
     * Fills in what a submission may leave out (schemas, hashes, permissions) before it is
     * validated; must be pure and deterministic (a replayed submission completes the same way).
     */
    readonly completeWorkflow?: (lwir: unknown) => unknown;
  };
};

/** The default session key of a task when the context does not give one. */
export function sessionKeyFor(task: HarnessTask, ctx: WorkflowHarnessContext): string {
  if (ctx.sessionKey !== undefined) return ctx.sessionKey;
  switch (task.kind) {
    case "plan":
      return "plan";
    case "orchestrate":
      return "orchestrate";
    case "execute_step":
      return `step:${task.stepContext.stepPath}@attempt_1`;
    case "fix_step":
      return `fix:${stepPathOf(task, ctx)}@attempt_1`;
  }
}

export function stepPathOf(task: HarnessTask, ctx: WorkflowHarnessContext): string {
  if (task.kind === "execute_step") return task.stepContext.stepPath;
  if (ctx.stepPath !== undefined) return ctx.stepPath;
  return task.kind === "fix_step" ? task.step.id : task.kind;
}

export function requireManifest(task: HarnessTask, ctx: WorkflowHarnessContext): HarnessManifest {
  if (ctx.manifest !== undefined) return ctx.manifest;
  const which = { plan: "PlannerManifest", orchestrate: "OrchestratorManifest", execute_step: "WorkerManifest", fix_step: "FixerManifest" }[task.kind];
  throw new WorkflowHarnessContextError({
    task: task.kind,
    missing: "manifest",
    hint: `Pass the session's ${which} as ctx.manifest (the runtime and the compiler compute it); it is recorded in harness.session.started and compared on resume.`,
  });
}
