import type { UsageTotals } from "@little-stack/models";
import type { FailedRunResult, RunResult } from "@little-stack/runtime";

/** What `little run` prints on stdout (runtime.md § CLI). */
export type RunSummary =
  | { readonly runId: string; readonly workflowVersionId: string; readonly status: "completed"; readonly output: unknown; readonly usage: UsageTotals; readonly eventCount: number }
  | { readonly runId: string; readonly workflowVersionId: string; readonly status: "failed"; readonly error: FailedRunResult["error"]; readonly usage: UsageTotals; readonly eventCount: number };

export function summaryOfCompletedRun(result: RunResult): RunSummary {
  return { runId: result.runId, workflowVersionId: result.workflowVersionId, status: "completed", output: result.output, usage: result.usage, eventCount: result.events.length };
}

export function summaryOfFailedRun(result: FailedRunResult): RunSummary {
  return { runId: result.runId, workflowVersionId: result.workflowVersionId, status: "failed", error: result.error, usage: result.usage, eventCount: result.events.length };
}
