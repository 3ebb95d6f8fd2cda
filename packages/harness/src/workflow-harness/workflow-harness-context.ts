import type { ExpressionContext, LwirFinding } from "@little-stack/lwir";
import type { HarnessContext } from "../contract/harness.js";

/** An extra validation pass the compiler runs on a submitted LWIR (its binding pass). */
export type ExtraWorkflowValidation = (lwir: unknown) => readonly LwirFinding[] | Promise<readonly LwirFinding[]>;

/**
 * What the default workflowHarness reads beyond `HarnessContext` (whose `manifest`, `sessionKey`
 * and `stepPath` it uses as every durable harness does). Every field is optional in the type so
 * that a plain `HarnessContext` is accepted; `manifest` is required at run time (a durable session
 * records it and compares it on resume).
 */
export type WorkflowHarnessContext = HarnessContext & {
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

// The session identity helpers belong to the contract (any durable harness needs them).
export { requireManifest, sessionKeyFor, stepPathOf } from "../contract/session-identity.js";
