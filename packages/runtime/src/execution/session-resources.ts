import { sha256Digest } from "@little-stack/canonical";
import { shellCapabilitiesHash, type HarnessRuntimeMount, type SkillDescriptor, type WorkflowBashCapabilities } from "@little-stack/harness";
import { ensureMountDirectories, mountsForRole, type RoleMounts } from "@little-stack/memory";
import { resolveSkills, skillStaging, type SkillReference } from "@little-stack/skills";
import type { RunContext } from "./run-context.js";

/** A run's memory and scratch settings (what `executeWorkflowVersion` was given, checked). */
export type RunStorage = {
  /** The world's data dir: memory stores and run scratch live below it. */
  readonly dataDir: string;
  /** The workflow's id (its memory store); without it no workflow store is mounted. */
  readonly workflowId?: string;
  /** The workflow's `memory` option (validated before the run started). */
  readonly memory?: unknown;
  /** The orchestrator's run when this run is one of a pipeline's sub-runs. */
  readonly pipelineRunId?: string;
  /** The workflow's bash capabilities (checked): the fixer's shell gets them. */
  readonly bash?: WorkflowBashCapabilities;
};

/** The worker skills of a run (declared by the workflow, plus the org store's), resolved once. */
export type RunSkills = {
  readonly skills: readonly SkillDescriptor[];
  /** Staged read-only at `.agents/skills/<name>/` in a session's shell. */
  readonly mounts: readonly HarnessRuntimeMount[];
  readonly hash: string;
};

/** What a step's session is given besides its task: mounts and skills. */
export type SessionResources = RoleMounts & {
  readonly skills: readonly SkillDescriptor[];
  readonly skillMounts: readonly HarnessRuntimeMount[];
  readonly skillsHash: string;
  /** The workflow's bash capabilities, for the sessions that get a shell (the fixer). */
  readonly bash?: WorkflowBashCapabilities;
};

const noSkillsHash = sha256Digest([]);
const noResources: SessionResources = { memoryMounts: [], scratchMounts: [], skills: [], skillMounts: [], skillsHash: noSkillsHash };

/**
 * Resolves the worker skills once per run invocation: the workflow's `worker.skills` and the org
 * skills under `<dataDir>/memory/org/skills/` (workflow-declared win on a name clash). A missing or
 * malformed skill throws the skills package's named error.
 */
export async function resolveRunSkills(options: { readonly dataDir: string; readonly declared: readonly (SkillReference | string)[] }): Promise<RunSkills> {
  const resolved = await resolveSkills(options.declared, { dataDir: options.dataDir, includeOrg: true });
  return {
    skills: resolved.skills.map((skill) => ({ name: skill.name, description: skill.description, source: skill.source, contentHash: skill.contentHash })),
    mounts: skillStaging(resolved.skills).map((entry) => ({ mountPath: entry.mountPath, mode: entry.mode, hostPath: entry.hostPath })),
    hash: resolved.hash,
  };
}

/**
 * The mounts and skills of a step's session (seed 000, Memory + Scratch Storage and Skill Loading;
 * the mount table is `@little-stack/memory`'s). Skills are the run's worker skills. A worker gets
 * the workflow and org stores read-only and its step's own scratch; a fixer gets the workflow store
 * as the workflow's `memory` option says (read-write by default: persistent fixes go through
 * memory) and the same scratch. `tool.call` and `decision` sessions get nothing: they make one tool
 * call or evaluate a condition, and nothing there reads a file. The host directories exist before
 * the session starts.
 */
export async function sessionResources(run: RunContext, options: { readonly role: "worker.ai-generate" | "worker.code-run" | "worker.tool-call" | "fixer"; readonly stepPath: string; readonly direct: boolean }): Promise<SessionResources> {
  if (options.direct) return noResources;
  const { storage } = run;
  const mounts = mountsForRole({
    role: options.role,
    dataDir: storage.dataDir,
    // Without a workflow id there is no workflow store to mount; the run's version id stands in
    // as the (unused) owner name so the org store and the scratch are still mounted.
    workflowId: storage.workflowId ?? run.workflowVersionId,
    memory: storage.workflowId === undefined ? { ...memoryObject(storage.memory), workflow: "none" } : storage.memory,
    runId: run.runId,
    ...(storage.pipelineRunId === undefined ? {} : { pipelineRunId: storage.pipelineRunId }),
    stepPath: options.stepPath,
  });
  await ensureMountDirectories([...mounts.memoryMounts, ...mounts.scratchMounts]);
  return { skills: run.skills.skills, skillMounts: run.skills.mounts, skillsHash: run.skills.hash, ...(storage.bash === undefined ? {} : { bash: storage.bash }), ...mounts };
}

/** The `bashCapabilitiesHash` of a session that gets a shell over its mounts and skills (the fixer). */
export function sessionShellHash(resources: SessionResources): string {
  return shellCapabilitiesHash({ memoryMounts: resources.memoryMounts, scratchMounts: resources.scratchMounts, skillMounts: resources.skillMounts, ...(resources.bash === undefined ? {} : { bash: resources.bash }) });
}

function memoryObject(memory: unknown): Record<string, unknown> {
  return typeof memory === "object" && memory !== null && !Array.isArray(memory) ? (memory as Record<string, unknown>) : {};
}
