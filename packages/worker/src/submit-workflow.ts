import { randomId, sha256Digest } from "@little-stack/canonical";
import { isRunQueue, type JsonObject, type JsonValue, type RunSubmission, type World } from "@little-stack/local-world";
import { registerWorkflowVersion, validateLwir, type LwirDocument } from "@little-stack/lwir";
import { checkSubmittedRunOptions, type SubmittedRunOptions } from "./run-options.js";
import { InvalidWorkerOptionsError, WorldWithoutQueueError } from "./worker-errors.js";

export type SubmitWorkflowOptions = {
  readonly world: World;
  /** A locked workflow version `{ id, hash, lwir }` (`registerWorkflowVersion(lwir)`, or a compiler lock). */
  readonly workflowVersion: { readonly id: string; readonly hash?: string; readonly lwir: LwirDocument; readonly workflowDefinitionHash?: string };
  readonly input: unknown;
  /** Default: a new `run_…` id. Submitting the same run again is a no-op. */
  readonly runId?: string;
  /** Tool names a worker must have; default the LWIR's `permissions.tools`. */
  readonly tools?: readonly string[];
  /** Model slot ids a worker must have; default the LWIR's `permissions.models`. */
  readonly models?: readonly string[];
  readonly options?: SubmittedRunOptions;
};

/**
 * Enqueues a run for workers: the locked version, the input and per-run options by value, the
 * tools and models by id. Resolves to the stored submission; follow it with `awaitRun`.
 */
export async function submitWorkflow(options: SubmitWorkflowOptions): Promise<RunSubmission> {
  const { world, workflowVersion } = options;
  if (!isRunQueue(world)) throw new WorldWithoutQueueError("submit a workflow");
  if (typeof workflowVersion !== "object" || workflowVersion === null || typeof workflowVersion.id !== "string" || typeof workflowVersion.lwir !== "object") {
    throw new InvalidWorkerOptionsError("workflowVersion", "must be a locked workflow version { id, hash, lwir }");
  }
  // Refused here, not on a worker later: a version that is not valid or not what it claims to be.
  const validation = validateLwir(workflowVersion.lwir);
  if (!validation.valid) {
    const findings = validation.findings.slice(0, 5).map((finding) => `${finding.path} ${finding.code}: ${finding.message}`);
    throw new InvalidWorkerOptionsError("workflowVersion", `has an LWIR that is not valid (${validation.findings.length} finding(s)):\n  ${findings.join("\n  ")}`);
  }
  if (registerWorkflowVersion(workflowVersion.lwir).id !== workflowVersion.id) {
    throw new InvalidWorkerOptionsError("workflowVersion", `id ${workflowVersion.id} is not the id of its LWIR (the LWIR was changed after locking)`);
  }
  const runOptions = checkSubmittedRunOptions(options.options);
  const permissions = workflowVersion.lwir.permissions;
  return world.submitRun({
    runId: options.runId ?? randomId("run"),
    workflowVersion: {
      id: workflowVersion.id,
      hash: workflowVersion.hash ?? sha256Digest(workflowVersion.lwir),
      lwir: workflowVersion.lwir as unknown as JsonObject,
      ...(workflowVersion.workflowDefinitionHash === undefined ? {} : { workflowDefinitionHash: workflowVersion.workflowDefinitionHash }),
    },
    input: (options.input ?? null) as JsonValue,
    tools: options.tools ?? permissions?.tools ?? [],
    models: options.models ?? permissions?.models ?? [],
    options: runOptions as JsonObject,
  });
}
