import { sha256Digest } from "@little-stack/canonical";
import {
  sessionShellCwd,
  shellCapabilitiesHash,
  type HarnessRuntimeMount,
  type MemoryMount,
  type OuterLoopContext,
  type PlannerManifest,
  type ScratchMount,
  type WorkflowBashCapabilities,
} from "@little-stack/harness";

/** The working directory of a planner's bash (seed 001: cwd-scoped to the own scratch). */
export const plannerBashCwd = sessionShellCwd;

/**
 * What the planner's shell can reach and do (`shellCapabilitiesHash` of the harness, which the
 * runtime uses for fixer sessions too): cwd, mounts' virtual paths and modes, staged skills, bash
 * capabilities — no host paths.
 */
export function plannerBashCapabilitiesHash(options: {
  readonly memoryMounts: readonly MemoryMount[];
  readonly scratchMounts: readonly ScratchMount[];
  readonly skillMounts: readonly HarnessRuntimeMount[];
  readonly bash?: WorkflowBashCapabilities;
}): string {
  return shellCapabilitiesHash(options);
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
