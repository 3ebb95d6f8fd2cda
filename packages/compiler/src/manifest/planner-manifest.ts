import { sha256Digest } from "@little-stack/canonical";
import type { HarnessRuntimeMount, MemoryMount, OuterLoopContext, PlannerManifest, ScratchMount, WorkflowBashCapabilities } from "@little-stack/harness";

/** The working directory of a planner's bash (seed 001: cwd-scoped to the own scratch). */
export const plannerBashCwd = "/mnt/scratch/own";

/**
 * What the planner's shell can reach and do, without host paths (so the hash is the same on
 * every machine): its cwd, each mount's virtual path and mode, the staged skill paths, and the
 * workflow's bash capabilities.
 */
export function plannerBashCapabilitiesHash(options: {
  readonly memoryMounts: readonly MemoryMount[];
  readonly scratchMounts: readonly ScratchMount[];
  readonly skillMounts: readonly HarnessRuntimeMount[];
  readonly bash?: WorkflowBashCapabilities;
}): string {
  const mounts = [...options.memoryMounts, ...options.scratchMounts]
    .map((mount) => ({ mountPath: mount.mountPath, mode: mount.mode }))
    .sort((left, right) => (left.mountPath < right.mountPath ? -1 : 1));
  return sha256Digest({
    cwd: plannerBashCwd,
    mounts,
    skills: options.skillMounts.map((mount) => mount.mountPath).sort(),
    capabilities: options.bash ?? null,
  });
}

/** `sha256(canonicalJson(outerLoopContext))`: each outer-loop cycle's planner session differs. */
export function outerLoopContextHash(context: OuterLoopContext): string {
  return sha256Digest(context);
}

/** The PlannerManifest of seed 001 stage 4, computed before the planner session starts. */
export function computePlannerManifest(options: {
  readonly harnessId: string;
  readonly plannerModelSlotId: string;
  readonly system: string | undefined;
  /** Hash of the session's skills: workflow-declared plus org skills. */
  readonly skillsHash: string;
  readonly workflowDefinitionHash: string;
  readonly globalToolsHash: string;
  readonly bashCapabilitiesHash: string;
  readonly memoryStoreIds: readonly string[];
  readonly outerLoopContext?: OuterLoopContext;
}): PlannerManifest {
  return {
    harnessId: options.harnessId,
    plannerModelSlotId: options.plannerModelSlotId,
    systemPromptHash: sha256Digest(options.system ?? ""),
    skillsHash: options.skillsHash,
    workflowDefinitionHash: options.workflowDefinitionHash,
    globalToolsHash: options.globalToolsHash,
    bashCapabilitiesHash: options.bashCapabilitiesHash,
    memoryStoreIds: [...options.memoryStoreIds],
    ...(options.outerLoopContext === undefined ? {} : { outerLoopContextHash: outerLoopContextHash(options.outerLoopContext) }),
  };
}
