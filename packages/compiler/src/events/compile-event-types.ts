import type { OuterLoopContext } from "@little-stack/harness";
import type { CompilerLock } from "../lock/compiler-lock.js";
import type { CompilerWorkflowDefinitionSnapshot } from "../snapshot/create-workflow-definition-snapshot.js";

/** The run-level compile events (runtime.md) and their payloads. */
export const compileEventTypes = ["OrchestrationRequested", "WorkflowValidationFailed", "WorkflowValidationSucceeded", "WorkflowVersionRegistered"] as const;

export type CompileEventType = (typeof compileEventTypes)[number];

/** The normalized request a compile starts from (seed 000 step 2). */
export type OrchestrationRequest = {
  readonly workflowId: string;
  readonly workflowDefinitionHash: string;
  readonly input: unknown;
  readonly inputHash: string;
  readonly outerLoop?: OuterLoopContext;
  readonly parentRunId?: string;
};

export type OrchestrationRequestedPayload = OrchestrationRequest & {
  /** Kept whole so that drift on resume can say which field changed. */
  readonly snapshot: CompilerWorkflowDefinitionSnapshot;
};

/**
 * Where a validation verdict came from: a `submit_workflow` call inside the planner session
 * (`key` = its tool call id), or the LWIR a harness returned (`key` = the session id).
 */
export type ValidationSource = "submit_workflow" | "harness_result";

export type WorkflowValidationFailedPayload = {
  readonly revision: number;
  readonly source: ValidationSource;
  readonly key: string;
  readonly lwirHash: string | null;
  readonly findings: readonly { readonly code: string; readonly path: string; readonly message: string }[];
};

export type WorkflowValidationSucceededPayload = {
  readonly revision: number;
  readonly source: ValidationSource;
  readonly key: string;
  readonly lwirHash: string;
};

/** Same fields the runtime reads (`workflowVersionId`, `hash`, `lwir`), plus the lock. */
export type WorkflowVersionRegisteredPayload = {
  readonly workflowVersionId: string;
  readonly hash: string;
  readonly lwir: unknown;
  readonly workflowDefinitionHash: string;
  readonly lock: CompilerLock;
};
