/**
 * The view of a workflow definition a planner (or orchestrator) session receives (seed 001,
 * stage 3). Defined here, not in the compiler, because the harness contract names it and the
 * compiler sits above the harness in the package graph.
 */
export type MemoryAccess = "rw" | "ro" | "none";

export type WorkflowDefinitionSnapshot = {
  readonly id: string;
  readonly description: string;
  readonly inputSchemaHash: string;
  readonly outputSchemaHash: string;
  readonly modelSlots: readonly {
    readonly id: string;
    readonly providerId: string;
    readonly modelId: string;
    readonly description: string;
  }[];
  readonly plannerConfig: {
    readonly modelSlotId: string;
    readonly harnessId: string;
    readonly systemHash: string;
    readonly skillsHash: string;
  };
  readonly workerConfig: { readonly harnessId: string; readonly skillsHash: string };
  /** Sorted tool ids. */
  readonly globalTools: readonly string[];
  readonly memoryConfig: {
    readonly workflow: MemoryAccess;
    readonly org: MemoryAccess;
    readonly attached: readonly Readonly<Record<string, unknown>>[];
  };
  /** The schemas themselves (the compiler's snapshot carries them): shown to the planner. */
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
  /** The workflow's tools with their schemas (the compiler's snapshot carries them): shown to the planner. */
  readonly tools?: readonly {
    readonly name: string;
    readonly description: string | null;
    readonly inputSchema: unknown;
    readonly outputSchema?: unknown;
  }[];
};

/** What a re-plan after `supervise` carries into the next planner session. */
export type OuterLoopContext = {
  readonly outerLoopId: string;
  readonly cycleNumber: number;
  readonly maxCycles: number;
  readonly isFinalCycle: boolean;
  readonly priorCycles: readonly unknown[];
  readonly promptNote?: string;
};
