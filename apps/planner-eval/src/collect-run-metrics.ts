import { addModelCallToTotals, bundledModelRegistry, emptyUsageTotals, priceModelCall, type UsageTotals } from "@little-stack/models";
import type { EventEnvelope, World } from "@little-stack/workflow";

/** The planner's tools, counted by name (check_workflow and test_code arrive with issue 13). */
export const plannerToolNames = ["submit_workflow", "check_workflow", "test_code"] as const;

export type FindingCounts = { readonly count: number; readonly codes: Readonly<Record<string, number>> };

/** What one evaluation's world recorded, over every run in it (plan runs, cycles, sub-runs). */
export type RunMetrics = {
  readonly submissions: number;
  /** Planning sessions (runs with at least one submission) and how many were accepted on their first submission. */
  readonly planningSessions: number;
  readonly acceptedFirstTry: number;
  readonly checks: number;
  readonly testCodeCalls: number;
  /** test_code calls whose code failed (`ok: false`). */
  readonly testCodeFailures: number;
  /** Findings returned by submit_workflow and check_workflow. */
  readonly findings: FindingCounts;
  readonly submitFindings: FindingCounts;
  readonly checkFindings: FindingCounts;
  /** The fixer's try_fix calls (a code step repaired at run time). */
  readonly fixerTries: number;
  readonly outerCycles: number;
  /** Model calls outside any step (planner, orchestrator) and inside steps (workers, fixers). */
  readonly modelCalls: { readonly planning: number; readonly steps: number; readonly total: number };
  readonly usage: UsageTotals;
  readonly runIds: readonly string[];
};

type ToolCallPayload = { readonly callId: string; readonly toolName: string; readonly result?: unknown };
type RespondedPayload = {
  readonly callId: string;
  readonly stepPath?: string;
  readonly model: { readonly provider: string; readonly modelId: string };
  readonly response: { readonly usage: { readonly inputTokens: number; readonly outputTokens: number; readonly cachedInputTokens?: number; readonly reasoningTokens?: number } };
};

function addFindings(into: Map<string, number>, result: unknown): void {
  const findings = (result as { findings?: unknown } | undefined)?.findings;
  if (!Array.isArray(findings)) return;
  for (const finding of findings) {
    const code = typeof (finding as { code?: unknown }).code === "string" ? (finding as { code: string }).code : "(no code)";
    into.set(code, (into.get(code) ?? 0) + 1);
  }
}

function countsOf(codes: Map<string, number>): FindingCounts {
  const sorted = [...codes.entries()].sort(([a], [b]) => a.localeCompare(b));
  return { count: sorted.reduce((sum, [, n]) => sum + n, 0), codes: Object.fromEntries(sorted) };
}

/**
 * Reads the counts from the events, not from memory: every `harness.tool_call.started` of a
 * planner tool (distinct call ids, so a call re-executed after a crash counts once), the results
 * of `harness.tool_call.succeeded`, every `harness.model.responded` (priced with the bundled
 * registry, as `little report` does) and every `OuterLoopCycleCompleted`.
 */
export async function collectRunMetrics(world: World): Promise<RunMetrics> {
  const runs = await world.listRuns();
  const started = new Map<string, Set<string>>(plannerToolNames.map((name) => [name, new Set<string>()]));
  const submitCodes = new Map<string, number>();
  const checkCodes = new Map<string, number>();
  const fixerTries = new Set<string>();
  let planningSessions = 0;
  let acceptedFirstTry = 0;
  let testCodeFailures = 0;
  let outerCycles = 0;
  let planning = 0;
  let steps = 0;
  let usage = emptyUsageTotals();
  for (const run of runs) {
    const events: EventEnvelope[] = await world.listEvents(run.runId);
    const responded = new Set<string>();
    let firstSubmission: unknown;
    let submitted = false;
    for (const event of events) {
      if (event.type === "OuterLoopCycleCompleted") outerCycles += 1;
      if (event.type === "harness.tool_call.started") {
        const payload = event.payload as ToolCallPayload;
        started.get(payload.toolName)?.add(`${run.runId} ${payload.callId}`);
        if (payload.toolName === "try_fix") fixerTries.add(`${run.runId} ${payload.callId}`);
      }
      if (event.type === "harness.tool_call.succeeded") {
        const payload = event.payload as ToolCallPayload;
        if (payload.toolName === "submit_workflow") {
          addFindings(submitCodes, payload.result);
          if (!submitted) firstSubmission = payload.result;
          submitted = true;
        }
        if (payload.toolName === "check_workflow") addFindings(checkCodes, payload.result);
        if (payload.toolName === "test_code" && (payload.result as { ok?: unknown } | undefined)?.ok !== true) testCodeFailures += 1;
      }
      if (event.type === "harness.model.responded") {
        const payload = event.payload as RespondedPayload;
        if (responded.has(payload.callId)) continue;
        responded.add(payload.callId);
        if (payload.stepPath === undefined) planning += 1;
        else steps += 1;
        usage = addModelCallToTotals(usage, priceModelCall({ provider: payload.model.provider, modelId: payload.model.modelId, usage: payload.response.usage }, bundledModelRegistry));
      }
    }
    if (submitted) {
      planningSessions += 1;
      if ((firstSubmission as { accepted?: unknown } | undefined)?.accepted === true) acceptedFirstTry += 1;
    }
  }
  const allCodes = new Map(submitCodes);
  for (const [code, n] of checkCodes) allCodes.set(code, (allCodes.get(code) ?? 0) + n);
  return {
    submissions: started.get("submit_workflow")!.size,
    planningSessions,
    acceptedFirstTry,
    checks: started.get("check_workflow")!.size,
    testCodeCalls: started.get("test_code")!.size,
    testCodeFailures,
    findings: countsOf(allCodes),
    submitFindings: countsOf(submitCodes),
    checkFindings: countsOf(checkCodes),
    fixerTries: fixerTries.size,
    outerCycles,
    modelCalls: { planning, steps, total: planning + steps },
    usage,
    runIds: runs.map((run) => run.runId),
  };
}
