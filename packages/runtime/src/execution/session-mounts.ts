import { shellCapabilitiesHash } from "@little-stack/harness";
import { ensureMountDirectories, memoryStoreIds, mountsForRole, type RoleMounts } from "@little-stack/memory";
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
};

const noMounts: RoleMounts = { memoryMounts: [], scratchMounts: [] };

/**
 * The mounts of a step's session (seed 000, Memory + Scratch Storage; the table in
 * `@little-stack/memory`): a worker gets the workflow and org stores read-only and its step's own
 * scratch; a fixer gets the workflow store as the workflow's `memory` option says (read-write by
 * default: persistent fixes go through memory) and the same scratch. `tool.call` and `decision`
 * sessions get none: they make one tool call or evaluate a condition, and nothing there reads a
 * file. The host directories exist before the session starts.
 */
export async function sessionMounts(run: RunContext, options: { readonly role: "worker.ai-generate" | "worker.code-run" | "worker.tool-call" | "fixer"; readonly stepPath: string; readonly direct: boolean }): Promise<RoleMounts> {
  if (options.direct) return noMounts;
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
  return mounts;
}

/** The manifest fields that describe a session's mounts. */
export function mountManifestFields(mounts: RoleMounts, options: { readonly shell: boolean }): { readonly memoryStoreIds: readonly string[]; readonly bashCapabilitiesHash?: string } {
  return {
    memoryStoreIds: memoryStoreIds(mounts.memoryMounts),
    ...(options.shell ? { bashCapabilitiesHash: shellCapabilitiesHash({ ...mounts, skillMounts: [] }) } : {}),
  };
}

function memoryObject(memory: unknown): Record<string, unknown> {
  return typeof memory === "object" && memory !== null && !Array.isArray(memory) ? (memory as Record<string, unknown>) : {};
}
