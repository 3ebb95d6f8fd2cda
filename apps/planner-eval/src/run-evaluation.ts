import { join } from "node:path";
import { LittleWorkflowError, localWorld, replayRun, runOrchestration, runWorkflow, type RunFailedError, type World } from "@little-stack/workflow";
import { collectRunMetrics, type RunMetrics } from "./collect-run-metrics.js";
import type { CheckResult, EvalCase, EvalDefinition, EvalModels, OrchestrationOutcome } from "./eval-definition.js";

/** One row of the report: what the planner did, how the run ended, whether the output is right. */
export type EvaluationResult = {
  readonly name: string;
  readonly level: number;
  readonly covers: string;
  /** `completed`, `failed` (a RunFailedError: see causeCode) or `error` (anything else thrown). */
  readonly runStatus: "completed" | "failed" | "error";
  readonly causeCode?: string;
  readonly error?: string;
  readonly output?: unknown;
  readonly check: CheckResult;
  readonly metrics: RunMetrics;
  readonly durationMs: number;
  /** The world of this evaluation (inspect it with `little … --data-dir`). */
  readonly dataDir: string;
};

export type RunEvaluationOptions = {
  readonly models: EvalModels;
  /** The evaluation's world is `<dataDir>/<name>`; an existing one is resumed (finished runs replay without model calls). */
  readonly dataDir: string;
  /** For the whole evaluation (planning and running), e.g. "30m". */
  readonly timeout: string;
};

type Outcome = { readonly runStatus: EvaluationResult["runStatus"]; readonly output?: unknown; readonly causeCode?: string; readonly error?: string };

/** Plans and runs one definition in its own world, then checks the output and counts from the events. */
export async function runEvaluation(definition: EvalDefinition, options: RunEvaluationOptions): Promise<EvaluationResult> {
  const dataDir = join(options.dataDir, definition.name);
  const world = localWorld({ dataDir, maxConcurrentSteps: 8 });
  const started = Date.now();
  try {
    const evalCase = definition.build(options.models);
    const outcome = await run(evalCase, { world, models: options.models, runId: `eval-${definition.name}`, timeout: options.timeout });
    const check: CheckResult =
      outcome.runStatus === "completed" ? definition.check(outcome.output) : { correct: false, problems: [`the run did not complete: ${outcome.causeCode ?? outcome.runStatus}${outcome.error === undefined ? "" : ` — ${outcome.error}`}`] };
    return {
      name: definition.name,
      level: definition.level,
      covers: definition.covers,
      ...outcome,
      check,
      metrics: await collectRunMetrics(world),
      durationMs: Date.now() - started,
      dataDir,
    };
  } finally {
    await world.close();
  }
}

async function run(evalCase: EvalCase, context: { world: World; models: EvalModels; runId: string; timeout: string }): Promise<Outcome> {
  try {
    if (evalCase.kind === "workflow") {
      const result = await runWorkflow(evalCase.workflow, evalCase.input, {
        world: context.world,
        runId: context.runId,
        timeout: context.timeout,
        ...(evalCase.tools === undefined ? {} : { tools: evalCase.tools }),
      });
      return { runStatus: "completed", output: result.output };
    }
    const result = await runOrchestration({
      workflows: evalCase.workflows,
      orchestrator: { model: context.models("orchestrator"), system: evalCase.orchestratorSystem },
      input: evalCase.input,
      world: context.world,
      runId: context.runId,
      timeout: context.timeout,
      ...(evalCase.tools === undefined ? {} : { tools: evalCase.tools }),
      ...(evalCase.maxConcurrentSubRuns === undefined ? {} : { maxConcurrentSubRuns: evalCase.maxConcurrentSubRuns }),
    });
    const subRuns = await Promise.all(
      result.subRuns.map(async (subRun) => {
        const state = await replayRun(context.world, subRun.runId);
        return { input: state.input, status: state.status, ...(state.output === undefined ? {} : { output: state.output }) };
      }),
    );
    const outcome: OrchestrationOutcome = { answer: parsedIfJson(result.output), plannedVersions: result.plannedVersions.length, subRuns };
    return { runStatus: "completed", output: outcome };
  } catch (error) {
    // RunFailedError inherits the base is(): ask for its code, so other errors never read as run failures.
    if (LittleWorkflowError.is(error, "runtime.run_failed")) return { runStatus: "failed", causeCode: (error as RunFailedError).causeCode, error: error.message };
    if (LittleWorkflowError.is(error)) return { runStatus: "error", causeCode: error.code, error: error.message };
    return { runStatus: "error", error: error instanceof Error ? error.message : String(error) };
  }
}

function parsedIfJson(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}
