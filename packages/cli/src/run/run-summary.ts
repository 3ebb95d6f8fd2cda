import type { UsageTotals } from "@little-stack/models";
import type { FailedRunResult, RunResult } from "@little-stack/runtime";

/** What `little run` prints on stdout (runtime.md § CLI). */
export type RunSummary =
  | { readonly runId: string; readonly workflowVersionId: string; readonly status: "completed"; readonly output: unknown; readonly usage: UsageTotals; readonly eventCount: number }
  | { readonly runId: string; readonly workflowVersionId: string; readonly status: "failed"; readonly error: FailedRunResult["error"]; readonly usage: UsageTotals; readonly eventCount: number };

/**
 * `eventCount` is the world's (its run summary): a long run's `result.events` are read from the
 * world on first access, which a count does not need.
 */
export function summaryOfCompletedRun(result: RunResult, eventCount: number): RunSummary {
  return { runId: result.runId, workflowVersionId: result.workflowVersionId, status: "completed", output: result.output, usage: result.usage, eventCount };
}

export function summaryOfFailedRun(result: FailedRunResult, eventCount: number): RunSummary {
  return { runId: result.runId, workflowVersionId: result.workflowVersionId, status: "failed", error: result.error, usage: result.usage, eventCount };
}
