/**
 * Structural descriptions of what a session can see. @little-stack/memory and
 * @little-stack/skills own how these are built; the contract only needs their shape so that a
 * custom harness can be written against @little-stack/harness alone.
 */
export type MountMode = "rw" | "ro";

/** A memory store mounted into the session (`/mnt/memory/workflow/` …). */
export type MemoryMount = {
  readonly mountPath: string;
  readonly mode: MountMode;
  readonly hostPath: string;
  readonly storeId: string;
  readonly purpose?: string;
};

/** A run scratch directory mounted into the session (`/mnt/scratch/own/` …). */
export type ScratchMount = {
  readonly mountPath: string;
  readonly mode: MountMode;
  readonly hostPath: string;
  readonly purpose?: string;
};

/** Any other directory staged for the session (skills at `.agents/skills/<name>/`). */
export type HarnessRuntimeMount = {
  readonly mountPath: string;
  readonly mode: MountMode;
  readonly hostPath: string;
};

/** A resolved skill: frontmatter only; bodies are read on demand through bash. */
export type SkillDescriptor = {
  readonly name: string;
  readonly description: string;
  readonly source: string;
  readonly contentHash: string;
};

/** What a workflow grants to the bash tool beyond the filesystem mounts. */
export type WorkflowBashCapabilities = {
  readonly network?: {
    readonly allow: readonly string[];
    readonly methods?: readonly string[];
    readonly denyPrivateRanges?: boolean;
  };
  readonly maxCommands?: number;
  readonly timeoutMs?: number;
};

/** The bash tool a session may receive (seed 003). */
export type BashTool = {
  execute(input: { cmd: string; cwd?: string; timeoutMs?: number }): Promise<{
    stdout: string;
    stderr: string;
    exitCode: number;
  }>;
};
