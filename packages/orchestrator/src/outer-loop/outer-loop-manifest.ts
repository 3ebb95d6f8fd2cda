import type { JsonObject } from "@little-stack/local-world";

/** One finished cycle as `outer-loops/<id>.json` lists it. */
export type OuterLoopCycleEntry = {
  readonly cycleNumber: number;
  readonly runId: string;
  readonly workflowVersionId: string;
  readonly status: "completed" | "failed";
  readonly decision: "done" | "continue";
};

/**
 * `outer-loops/<outerLoopId>.json`: what a resume needs before reading any run log. Written
 * (atomically, by the world) before a cycle starts (`pendingCycleRunId`) and after each cycle.
 */
export type OuterLoopManifest = {
  readonly outerLoopId: string;
  /** The run id the caller gave: its log holds the OuterLoopCycleCompleted events. */
  readonly runId: string;
  readonly workflowId: string;
  readonly inputHash: string;
  readonly maxCycles: number;
  readonly status: "running" | "completed" | "failed";
  readonly cycles: readonly OuterLoopCycleEntry[];
  /** The run of the cycle that started and has no OuterLoopCycleCompleted yet. */
  readonly pendingCycleRunId?: string;
  readonly pendingCycleNumber?: number;
  readonly updatedAt: string;
};

export function toJsonObject(manifest: OuterLoopManifest): JsonObject {
  return JSON.parse(JSON.stringify(manifest)) as JsonObject;
}
