import { localWorld, replayRun, runOrchestration } from "@little-stack/workflow";
import { classifyWorkflow, sampleDocuments } from "./classify-workflow.js";
import { scriptedOrchestrator } from "./scripted-orchestrator.js";

export type DemoOptions = {
  readonly dataDir: string;
  readonly runId: string;
  readonly documents: number;
  readonly maxConcurrentSubRuns: number;
  readonly onClassified?: (documentId: string) => void;
  /** How long the classifier tool takes per document (default 20 ms). */
  readonly delayMs?: number;
};

export type DemoSummary = {
  readonly runId: string;
  readonly output: unknown;
  /** Planner model calls recorded in the pipeline's plan runs (across every process that worked on it). */
  readonly plannerCalls: number;
  readonly subRuns: number;
  readonly completedSubRuns: number;
  /** Most sub-runs in flight at once in this process. */
  readonly peakConcurrentSubRuns: number;
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number; readonly costUsd: number | null };
};

/** Runs (or resumes) the plan-once-run-many pipeline and summarizes it from the event log. */
export async function runDemo(options: DemoOptions): Promise<DemoSummary> {
  const world = localWorld({ dataDir: options.dataDir, maxConcurrentSteps: 16 });
  try {
    const documents = sampleDocuments(options.documents);
    const { tools, workflow } = classifyWorkflow({ ...(options.onClassified === undefined ? {} : { onClassified: options.onClassified }), ...(options.delayMs === undefined ? {} : { delayMs: options.delayMs }) });
    const result = await runOrchestration({
      workflows: [workflow],
      orchestrator: { model: scriptedOrchestrator(documents), system: "Classify every document: plan the classifier once, then run it on each document." },
      input: { documents },
      world,
      tools,
      runId: options.runId,
      maxConcurrentSubRuns: options.maxConcurrentSubRuns,
    });
    let plannerCalls = 0;
    for (const planned of result.plannedVersions) plannerCalls += (await world.listEvents(planned.planRunId, { typePrefix: "harness.model.responded" })).length;
    const states = await Promise.all(result.subRuns.map((subRun) => replayRun(world, subRun.runId)));
    return {
      runId: result.runId,
      output: typeof result.output === "string" ? JSON.parse(result.output) : result.output,
      plannerCalls,
      subRuns: result.subRuns.length,
      completedSubRuns: states.filter((state) => state.status === "completed").length,
      peakConcurrentSubRuns: result.peakConcurrentSubRuns,
      usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens, costUsd: result.usage.costUsd },
    };
  } finally {
    await world.close();
  }
}
