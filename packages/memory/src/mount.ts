/** How a mount may be used from inside the harness bash: read-write or read-only. */
export type MountMode = "rw" | "ro";

/** Which memory store a mount exposes. */
export type MemoryStoreKind =
  | "workflow"
  | "pipeline"
  | "org"
  | "available-workflow"
  | "peer-workflow";

/** Which scratch directory a mount exposes, seen from the role that mounts it. */
export type ScratchKind = "own" | "from-orchestrator" | "from-planner" | "peer-step";

/** The minimum the path policy needs to know about a mount. */
export type PolicyMount = {
  /** Absolute virtual path inside the bash, no trailing slash (`/mnt/memory/org`). */
  readonly mountPath: string;
  /** Absolute host directory it maps to. */
  readonly hostPath: string;
  readonly mode: MountMode;
};

/** A persistent memory store mounted into a harness session. */
export type MemoryMount = PolicyMount & {
  readonly kind: "memory";
  readonly store: MemoryStoreKind;
  /**
   * Stable id of the store, independent of the data dir: `workflow:<id>`, `pipeline:<key>`, `org`.
   * Manifests record these (`memoryStoreIds`), never host paths.
   */
  readonly storeId: string;
  /** One line for the system prompt: what the store is for. */
  readonly purpose: string;
};

/** A run scratch directory mounted into a harness session. */
export type ScratchMount = PolicyMount & {
  readonly kind: "scratch";
  readonly scratch: ScratchKind;
  /** Stable id independent of the data dir: `run:<runId>`, `step:<runId>:<stepPath>`, … */
  readonly scratchId: string;
  readonly purpose: string;
};

/** Virtual paths every role sees (documented in the README). */
export const virtualPaths = {
  workflowMemory: "/mnt/memory/workflow",
  pipelineMemory: "/mnt/memory/pipeline",
  orgMemory: "/mnt/memory/org",
  availableWorkflows: "/mnt/memory/available-workflows",
  peerWorkflows: "/mnt/memory/peer-workflows",
  ownScratch: "/mnt/scratch/own",
  orchestratorScratch: "/mnt/scratch/from-orchestrator",
  plannerScratch: "/mnt/scratch/from-planner",
  peerStepScratches: "/mnt/scratch/peer-steps",
} as const;
