import { sha256Digest } from "@little-stack/canonical";
import type { HarnessRuntimeMount, MemoryMount, ScratchMount, WorkflowBashCapabilities } from "./mounts.js";

/** Where a session's shell starts (seed 001: cwd-scoped to the own scratch). */
export const sessionShellCwd = "/mnt/scratch/own";

/**
 * The `bashCapabilitiesHash` of a manifest whose session gets a shell: what the shell can reach and
 * do, without host paths (so the hash is the same on every machine) — its cwd, each mount's
 * virtual path and mode, the staged skill paths, and the workflow's bash capabilities.
 */
export function shellCapabilitiesHash(options: {
  readonly memoryMounts: readonly MemoryMount[];
  readonly scratchMounts: readonly ScratchMount[];
  readonly skillMounts: readonly HarnessRuntimeMount[];
  readonly bash?: WorkflowBashCapabilities;
}): string {
  const mounts = [...options.memoryMounts, ...options.scratchMounts]
    .map((mount) => ({ mountPath: mount.mountPath, mode: mount.mode }))
    .sort((left, right) => (left.mountPath < right.mountPath ? -1 : 1));
  return sha256Digest({
    cwd: sessionShellCwd,
    mounts,
    skills: options.skillMounts.map((mount) => mount.mountPath).sort(),
    capabilities: options.bash ?? null,
  });
}
