import { canonicalJson, contentId, sha256Digest } from "@little-stack/canonical";
import type { ModelDelta } from "@little-stack/harness";
import type { World } from "@little-stack/local-world";
import { executeWorkflowVersion, RunFailedError, type RunResult } from "@little-stack/runtime";
import { jsonSchema, tool, type ToolSet } from "ai";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { UnknownWorkflowError, UnknownWorkflowVersionError } from "../errors/orchestrator-errors.js";
import { compileForRun } from "../run/compile-for-run.js";
import { modelsOf, runCycle } from "../run/run-cycle.js";
import type { PipelineContext, PipelineWorkflow, PlannedVersion } from "./pipeline-context.js";
import { summarizeOutput } from "./sub-run-summary.js";

/** What plan_workflow returns to the model. */
export type PlanWorkflowResult = { readonly workflowId: string; readonly workflowVersionId: string; readonly planRunId: string; readonly summary: string };

/** What run_workflow returns to the model: metadata, never the whole output. */
export type RunWorkflowToolResult = {
  readonly runId: string;
  readonly workflowVersionId: string;
  readonly status: "completed" | "failed";
  readonly outputRef?: string;
  readonly outputPath?: string;
  /** Seed 000's name: the output cut short (or the failure), for the model. */
  readonly outputSummary: string;
  readonly causeCode?: string;
};

/** What start_workflow returns: plan + run in one call, output included. */
export type StartWorkflowToolResult = {
  readonly runId: string;
  readonly workflowVersionId: string;
  readonly status: "completed" | "failed";
  readonly output?: unknown;
  readonly summary: string;
  readonly causeCode?: string;
};

const workflowInputSchema = (idField: string, idDescription: string) =>
  jsonSchema<{ [key: string]: unknown; input: unknown }>({
    type: "object",
    properties: { [idField]: { type: "string", description: idDescription }, input: { description: "The workflow input (must match its input schema)." } },
    required: [idField, "input"],
    additionalProperties: false,
  });

function requireWorkflow(context: PipelineContext, workflowId: string): PipelineWorkflow {
  const workflow = context.workflows.get(workflowId);
  if (workflow === undefined) throw new UnknownWorkflowError({ workflowId, available: [...context.workflows.keys()].sort() });
  return workflow;
}

/** The plan run of (workflow, input) in this pipeline: calling plan_workflow twice with them plans once. */
export function planRunIdFor(options: { readonly pipelineRunId: string; readonly workflowId: string; readonly input: unknown }): string {
  return contentId("run", { pipelineRunId: options.pipelineRunId, plan: options.workflowId, inputHash: sha256Digest(options.input ?? null) });
}

/** The sub-run of one run_workflow / start_workflow call: the call id is deterministic, so a re-executed call resumes its sub-run. */
export function subRunIdFor(options: { readonly pipelineRunId: string; readonly toolCallId: string }): string {
  return contentId("run", { pipelineRunId: options.pipelineRunId, toolCallId: options.toolCallId });
}

async function plan(context: PipelineContext, workflowId: string, input: unknown): Promise<PlannedVersion> {
  const planRunId = planRunIdFor({ pipelineRunId: context.pipelineRunId, workflowId, input });
  // Two identical plan_workflow calls in one turn share one planner session (one writer per log).
  const pending = context.planning.get(planRunId);
  if (pending !== undefined) return pending;
  const planning = planOnce(context, workflowId, input, planRunId);
  context.planning.set(planRunId, planning);
  try {
    return await planning;
  } finally {
    context.planning.delete(planRunId);
  }
}

async function planOnce(context: PipelineContext, workflowId: string, input: unknown, planRunId: string): Promise<PlannedVersion> {
  const workflow = requireWorkflow(context, workflowId);
  const watcher = context.watcher;
  const compiled = await compileForRun({
    definition: workflow.definition,
    input,
    world: context.world,
    runId: planRunId,
    tools: workflow.tools,
    signal: context.deadline.signal,
    parentRunId: context.pipelineRunId,
    pipelineRunId: context.pipelineRunId,
    ...(watcher === undefined ? {} : { onModelDelta: (delta: ModelDelta) => watcher.modelDelta(planRunId, delta) }),
  });
  const planned = { workflowId, planRunId, workflowVersion: compiled.workflowVersion };
  // Content-addressed: the same LWIR planned twice is one version.
  if (!context.planned.has(compiled.workflowVersion.id)) context.planned.set(compiled.workflowVersion.id, planned);
  return context.planned.get(compiled.workflowVersion.id)!;
}

async function plannedVersion(context: PipelineContext, workflowVersionId: string): Promise<PlannedVersion> {
  const known = context.planned.get(workflowVersionId);
  if (known !== undefined) return known;
  // Planned before a restart: the plan run's log replays the planner without a model call.
  const recorded = context.recordedPlans.get(workflowVersionId);
  if (recorded !== undefined) {
    const replayed = await plan(context, recorded.workflowId, recorded.input);
    if (replayed.workflowVersion.id === workflowVersionId) return replayed;
  }
  throw new UnknownWorkflowVersionError({ workflowVersionId, known: [...context.planned.keys(), ...context.recordedPlans.keys()].sort() });
}

/** Writes the full output where the orchestrator's bash can read it; returns the virtual path. */
async function writeOutputFile(context: PipelineContext, runId: string, output: unknown): Promise<string> {
  const directory = join(context.scratchHostPath, "outputs");
  await mkdir(directory, { recursive: true });
  const target = join(directory, `${runId}.json`);
  const temporary = `${target}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(output ?? null, null, 2)}\n`);
  await rename(temporary, target);
  return `${context.scratchMountPath}/outputs/${runId}.json`;
}

/** The sub-run's `RunCompleted` outputRef, read by type: a long run's `result.events` would read its whole log. */
async function outputRefOf(world: World, result: RunResult): Promise<string | undefined> {
  const completed = (await world.listEvents(result.runId, { typePrefix: "RunCompleted" })).at(-1)?.payload as { outputRef?: string } | undefined;
  return completed?.outputRef;
}

function failedSummary(error: RunFailedError): string {
  return summarizeOutput(`${error.causeCode}: ${error.message}`);
}

/**
 * plan_workflow, run_workflow and start_workflow (seed 000, Orchestrator Tools). Several calls in
 * one model turn run concurrently (the AI SDK dispatches them together), sub-runs bounded by the
 * pipeline's `maxConcurrentSubRuns`. A failed sub-run is an answer for the model (status
 * "failed", causeCode), not a failure of the orchestrator.
 */
export function createOrchestratorTools(context: PipelineContext): ToolSet {
  return {
    plan_workflow: tool({
      description: "Plan a workflow for one representative input: returns a locked workflowVersionId to run with run_workflow for any input of the same shape. Planning the same workflow and input again returns the same id without planning again.",
      inputSchema: workflowInputSchema("workflowId", "Id of one of the available workflows."),
      execute: async (args): Promise<PlanWorkflowResult> => {
        const workflowId = String(args.workflowId);
        const planned = await plan(context, workflowId, args.input);
        const steps = planned.workflowVersion.lwir.steps.map((step) => `${step.id} (${step.uses})`).join(", ");
        return { workflowId, workflowVersionId: planned.workflowVersion.id, planRunId: planned.planRunId, summary: summarizeOutput(`steps: ${steps}`) };
      },
    }),
    run_workflow: tool({
      description: "Run a planned workflow version (from plan_workflow) on an input. Returns { runId, status, outputRef, outputPath, outputSummary }: read the full output from outputPath with bash. Call it several times in one turn to run inputs in parallel.",
      inputSchema: workflowInputSchema("workflowVersionId", "A workflowVersionId returned by plan_workflow."),
      execute: async (args, { toolCallId }): Promise<RunWorkflowToolResult> => {
        const planned = await plannedVersion(context, String(args.workflowVersionId));
        const workflow = requireWorkflow(context, planned.workflowId);
        const runId = subRunIdFor({ pipelineRunId: context.pipelineRunId, toolCallId });
        return context.slots.run(async () => {
          try {
            const remaining = context.deadline.remainingMs();
            const result = await executeWorkflowVersion({
              world: context.world,
              workflowVersion: planned.workflowVersion,
              input: args.input,
              runId,
              parentRunId: context.pipelineRunId,
              pipelineRunId: context.pipelineRunId,
              workflowId: workflow.definition.id,
              memory: workflow.definition.memory,
              workerSkills: workflow.definition.worker.skills,
              ...(workflow.definition.bash === undefined ? {} : { bashCapabilities: workflow.definition.bash }),
              tools: workflow.tools,
              models: modelsOf(workflow.definition),
              workerHarness: workflow.definition.worker.harness,
              harnessId: workflow.definition.worker.harnessId,
              ...(context.deadline.userSignal === undefined ? {} : { signal: context.deadline.userSignal }),
              ...(remaining === undefined ? {} : { timeout: Math.max(1, remaining) }),
              ...(context.modelRegistry === undefined ? {} : { modelRegistry: context.modelRegistry }),
              ...(context.watcher === undefined ? {} : { onEvent: context.watcher }),
            });
            const outputRef = await outputRefOf(context.world, result);
            return {
              runId,
              workflowVersionId: planned.workflowVersion.id,
              status: "completed",
              ...(outputRef === undefined ? {} : { outputRef }),
              outputPath: await writeOutputFile(context, runId, result.output),
              outputSummary: summarizeOutput(result.output),
            };
          } catch (error) {
            if (!(error instanceof RunFailedError) || error.causeCode === "cancelled" || error.causeCode === "timeout") throw error;
            return { runId, workflowVersionId: planned.workflowVersion.id, status: "failed", causeCode: error.causeCode, outputSummary: failedSummary(error) };
          }
        });
      },
    }),
    start_workflow: tool({
      description: "Plan and run a workflow in one call (for a single input). For many inputs of one shape, plan once with plan_workflow and run each with run_workflow.",
      inputSchema: workflowInputSchema("workflowId", "Id of one of the available workflows."),
      execute: async (args, { toolCallId }): Promise<StartWorkflowToolResult> => {
        const workflow = requireWorkflow(context, String(args.workflowId));
        const runId = subRunIdFor({ pipelineRunId: context.pipelineRunId, toolCallId });
        return context.slots.run(async () => {
          try {
            const result = await runCycle({
              definition: workflow.definition,
              input: args.input,
              world: context.world,
              runId,
              tools: workflow.tools,
              deadline: context.deadline,
              parentRunId: context.pipelineRunId,
              pipelineRunId: context.pipelineRunId,
              ...(context.modelRegistry === undefined ? {} : { modelRegistry: context.modelRegistry }),
              ...(context.watcher === undefined ? {} : { watcher: context.watcher }),
            });
            const small = canonicalJson(result.output ?? null).length <= 4000;
            return { runId, workflowVersionId: result.workflowVersionId, status: "completed", ...(small ? { output: result.output } : {}), summary: summarizeOutput(result.output) };
          } catch (error) {
            if (!(error instanceof RunFailedError) || error.causeCode === "cancelled" || error.causeCode === "timeout") throw error;
            return { runId, workflowVersionId: error.workflowVersionId, status: "failed", causeCode: error.causeCode, summary: failedSummary(error) };
          }
        });
      },
    }),
  };
}
