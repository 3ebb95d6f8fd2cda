import { resolveMemoryConfig, type MemoryStoreAccess, type ResolvedMemoryConfig } from "./memory-config.js";
import { MemoryLayoutError } from "./memory-layout-error.js";
import { virtualPaths, type MemoryMount, type MountMode, type ScratchMount } from "./mount.js";
import { runScratchLayout, pipelineScratchPath } from "./run-scratch-layout.js";
import { encodeStepPathDirectory } from "./step-path-directory.js";
import { memoryStoreLayout, requireStoreName } from "./store-layout.js";

/** The harness roles (same strings as `HarnessRole` in `@little-stack/harness`). */
export type MountRole =
  | "planner"
  | "orchestrator"
  | "worker.ai-generate"
  | "worker.code-run"
  | "worker.tool-call"
  | "fixer";

type WorkflowScoped = {
  readonly dataDir: string;
  readonly workflowId: string;
  /** The workflow's `memory` option (validated here; `undefined` = defaults). */
  readonly memory?: unknown;
  readonly runId: string;
  /** The orchestrator's run id when this run is a sub-run of a pipeline. */
  readonly pipelineRunId?: string;
};

type StepScoped = WorkflowScoped & {
  readonly stepPath: string;
  /** Step paths of the same run whose scratches this session may read (`/mnt/scratch/peer-steps/…`). */
  readonly peerStepPaths?: readonly string[];
};

export type RoleMountsOptions =
  | ({ readonly role: "planner" } & WorkflowScoped)
  | ({ readonly role: "worker.ai-generate" | "worker.code-run" | "worker.tool-call" | "fixer" } & StepScoped)
  | {
      readonly role: "orchestrator";
      readonly dataDir: string;
      readonly pipelineRunId: string;
      /** `pipelineKey(definitionHashes)` of the available workflows. */
      readonly pipelineKey: string;
      /** Ids of the workflows the orchestrator may run; their stores are mounted read-only. */
      readonly availableWorkflowIds: readonly string[];
      /** The org store as the orchestrator sees it (default `"ro"`). */
      readonly org?: MemoryStoreAccess;
    };

export type RoleMounts = {
  readonly memoryMounts: readonly MemoryMount[];
  readonly scratchMounts: readonly ScratchMount[];
};

function memoryMount(options: Omit<MemoryMount, "kind">): MemoryMount {
  return Object.freeze({ kind: "memory", ...options });
}

function scratchMount(options: Omit<ScratchMount, "kind">): ScratchMount {
  return Object.freeze({ kind: "scratch", ...options });
}

function atMost(access: MemoryStoreAccess, ceiling: MountMode): MemoryStoreAccess {
  return access === "rw" && ceiling === "ro" ? "ro" : access;
}

function sortMounts<T extends { readonly mountPath: string }>(mounts: T[]): readonly T[] {
  return Object.freeze(mounts.sort((left, right) => (left.mountPath < right.mountPath ? -1 : 1)));
}

function uniqueIds(field: string, ids: readonly string[]): string[] {
  if (!Array.isArray(ids)) throw new MemoryLayoutError(field, "expected an array");
  const seen = new Set<string>();
  for (const id of ids) {
    requireStoreName(field, id);
    if (seen.has(id)) throw new MemoryLayoutError(field, `${JSON.stringify(id)} is listed twice`);
    seen.add(id);
  }
  return [...seen].sort();
}

function workflowMemoryMounts(options: WorkflowScoped, config: ResolvedMemoryConfig, ceiling: MountMode): MemoryMount[] {
  const layout = memoryStoreLayout(options.dataDir);
  const mounts: MemoryMount[] = [];
  const workflow = atMost(config.workflow, ceiling);
  if (workflow !== "none") {
    mounts.push(memoryMount({
      store: "workflow",
      storeId: `workflow:${options.workflowId}`,
      mountPath: virtualPaths.workflowMemory,
      hostPath: layout.workflowStore(options.workflowId),
      mode: workflow,
      purpose: `persistent notes of workflow ${options.workflowId}, kept across runs`,
    }));
  }
  const org = atMost(config.org, ceiling);
  if (org !== "none") {
    mounts.push(memoryMount({
      store: "org",
      storeId: "org",
      mountPath: virtualPaths.orgMemory,
      hostPath: layout.org,
      mode: org,
      purpose: "organization-wide knowledge shared by every workflow",
    }));
  }
  for (const peer of config.attach) {
    mounts.push(memoryMount({
      store: "peer-workflow",
      storeId: `workflow:${peer}`,
      mountPath: `${virtualPaths.peerWorkflows}/${peer}`,
      hostPath: layout.workflowStore(peer),
      mode: "ro",
      purpose: `notes of the attached workflow ${peer}`,
    }));
  }
  return mounts;
}

/**
 * The memory and scratch mounts of one harness session, by role:
 *
 * | mount | planner | orchestrator | worker.* | fixer |
 * |---|---|---|---|---|
 * | /mnt/memory/workflow | `memory.workflow` (rw) | — | ro | `memory.workflow` (rw) |
 * | /mnt/memory/org | `memory.org` (ro) | `org` (ro) | ro | `memory.org` (ro) |
 * | /mnt/memory/pipeline | — | rw | — | — |
 * | /mnt/memory/available-workflows/<id> | — | ro | — | — |
 * | /mnt/memory/peer-workflows/<id> | ro (`memory.attach`) | — | ro | ro |
 * | /mnt/scratch/own | run scratch rw | pipeline scratch rw | step scratch rw | step scratch rw |
 * | /mnt/scratch/from-orchestrator | ro in a pipeline | — | ro in a pipeline | ro in a pipeline |
 * | /mnt/scratch/from-planner | — | — | run scratch ro | run scratch ro |
 * | /mnt/scratch/peer-steps/<encoded> | — | — | ro (`peerStepPaths`) | ro (`peerStepPaths`) |
 *
 * A `"none"` in the memory config removes the mount for every role. Mounts come sorted by virtual
 * path so manifests built from them are stable.
 */
export function mountsForRole(options: RoleMountsOptions): RoleMounts {
  if (options.role === "orchestrator") return orchestratorMounts(options);
  const config = resolveMemoryConfig(options.memory, { ownWorkflowId: requireStoreName("workflow id", options.workflowId) });
  const scratch = runScratchLayout(options);
  const scratchMounts: ScratchMount[] = [];
  if (scratch.pipelineScratch !== undefined && scratch.pipelineRunId !== undefined) {
    scratchMounts.push(scratchMount({
      scratch: "from-orchestrator",
      scratchId: `run:${scratch.pipelineRunId}`,
      mountPath: virtualPaths.orchestratorScratch,
      hostPath: scratch.pipelineScratch,
      mode: "ro",
      purpose: "the orchestrator's scratch for this pipeline (read-only)",
    }));
  }
  if (options.role === "planner") {
    scratchMounts.push(scratchMount({
      scratch: "own",
      scratchId: `run:${scratch.runId}`,
      mountPath: virtualPaths.ownScratch,
      hostPath: scratch.scratch,
      mode: "rw",
      purpose: "your working area for this run",
    }));
    return {
      memoryMounts: sortMounts(workflowMemoryMounts(options, config, "rw")),
      scratchMounts: sortMounts(scratchMounts),
    };
  }
  const ceiling: MountMode = options.role === "fixer" ? "rw" : "ro";
  scratchMounts.push(
    scratchMount({
      scratch: "own",
      scratchId: `step:${scratch.runId}:${options.stepPath}`,
      mountPath: virtualPaths.ownScratch,
      hostPath: scratch.stepScratch(options.stepPath),
      mode: "rw",
      purpose: `your working area for step ${options.stepPath}`,
    }),
    scratchMount({
      scratch: "from-planner",
      scratchId: `run:${scratch.runId}`,
      mountPath: virtualPaths.plannerScratch,
      hostPath: scratch.scratch,
      mode: "ro",
      purpose: "the planner's scratch for this run (read-only)",
    }),
  );
  const peers = [...new Set(options.peerStepPaths ?? [])].filter((peer) => peer !== options.stepPath).sort();
  for (const peer of peers) {
    scratchMounts.push(scratchMount({
      scratch: "peer-step",
      scratchId: `step:${scratch.runId}:${peer}`,
      mountPath: `${virtualPaths.peerStepScratches}/${encodeStepPathDirectory(peer)}`,
      hostPath: scratch.stepScratch(peer),
      mode: "ro",
      purpose: `the scratch of step ${peer} (read-only)`,
    }));
  }
  return {
    memoryMounts: sortMounts(workflowMemoryMounts(options, config, ceiling)),
    scratchMounts: sortMounts(scratchMounts),
  };
}

function orchestratorMounts(options: Extract<RoleMountsOptions, { role: "orchestrator" }>): RoleMounts {
  const layout = memoryStoreLayout(options.dataDir);
  const memoryMounts: MemoryMount[] = [
    memoryMount({
      store: "pipeline",
      storeId: `pipeline:${options.pipelineKey}`,
      mountPath: virtualPaths.pipelineMemory,
      hostPath: layout.pipelineStore(options.pipelineKey),
      mode: "rw",
      purpose: "persistent notes for this pipeline (same workflows, same store)",
    }),
  ];
  const org = resolveMemoryConfig({ org: options.org }, { path: "orchestrator" }).org;
  if (org !== "none") {
    memoryMounts.push(memoryMount({
      store: "org",
      storeId: "org",
      mountPath: virtualPaths.orgMemory,
      hostPath: layout.org,
      mode: org,
      purpose: "organization-wide knowledge shared by every workflow",
    }));
  }
  for (const id of uniqueIds("available workflow id", options.availableWorkflowIds)) {
    memoryMounts.push(memoryMount({
      store: "available-workflow",
      storeId: `workflow:${id}`,
      mountPath: `${virtualPaths.availableWorkflows}/${id}`,
      hostPath: layout.workflowStore(id),
      mode: "ro",
      purpose: `notes of the available workflow ${id} (read-only)`,
    }));
  }
  const scratchMounts = [
    scratchMount({
      scratch: "own",
      scratchId: `run:${requireStoreName("pipeline run id", options.pipelineRunId)}`,
      mountPath: virtualPaths.ownScratch,
      hostPath: pipelineScratchPath(options),
      mode: "rw",
      purpose: "your working area for this pipeline run",
    }),
  ];
  return { memoryMounts: sortMounts(memoryMounts), scratchMounts: sortMounts(scratchMounts) };
}

/** The sorted `memoryStoreIds` a manifest records (`"org:ro"`, `"workflow:<id>:rw"`, …). */
export function memoryStoreIds(memoryMounts: readonly MemoryMount[]): readonly string[] {
  return [...new Set(memoryMounts.map((mount) => `${mount.storeId}:${mount.mode}`))].sort();
}
