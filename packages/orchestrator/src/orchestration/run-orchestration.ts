import type { LanguageModelV3 } from "@ai-sdk/provider";
import { isModelSlotSpec, isWorkflowDefinition, workflowDefinitionReady, type ModelSlotSpec, type WorkflowDefinition } from "@little-stack/authoring";
import { randomId, sha256Digest } from "@little-stack/canonical";
import {
  harnessEventSinkFromWorld,
  workflowHarness,
  type Harness,
  type ModelDelta,
  type OrchestratorManifest,
  type ResolvedModel,
  type ToolRegistry,
  type WorkflowHarnessContext,
} from "@little-stack/harness";
import type { World } from "@little-stack/local-world";
import { ensureMountDirectories, memoryStoreIds, mountsForRole, pipelineKey, virtualPaths } from "@little-stack/memory";
import { emptyUsageTotals, sumUsageTotals, type ModelRegistry, type UsageTotals } from "@little-stack/models";
import { materializeRunState, RunEventDispatcher, type RunEventListener } from "@little-stack/runtime";
import { resolveSkills, skillStaging, type SkillReference } from "@little-stack/skills";
import type { ToolSet } from "ai";
import { join } from "node:path";
import { InvalidOrchestrationOptionsError } from "../errors/orchestrator-errors.js";
import { worldReportingTo } from "../live/world-reporting-to.js";
import { definitionHashOf, definitionSnapshotOf } from "../run/compile-for-run.js";
import { Deadline } from "../run/deadline.js";
import { resolveRunTools, toToolRegistry } from "../run/resolve-run-tools.js";
import { createOrchestratorTools } from "./orchestrator-tools.js";
import type { PipelineContext, PipelineWorkflow } from "./pipeline-context.js";
import { SubRunSlots } from "./semaphore.js";

export type OrchestratorOptions = {
  /** The orchestrator's own model (an AI SDK V3 model, or `model(languageModel, { id })`). */
  readonly model: LanguageModelV3 | ModelSlotSpec;
  readonly system?: string;
  readonly skills?: readonly (SkillReference | string)[];
  /** Default: the SDK's `workflowHarness`. */
  readonly harness?: Harness;
};

export type RunOrchestrationOptions = {
  /** The workflows the orchestrator may plan and run (ids unique). */
  readonly workflows: readonly WorkflowDefinition<any, any>[];
  readonly orchestrator: OrchestratorOptions;
  readonly input: unknown;
  readonly world: World;
  /** Registry (or record of AI SDK tools) the workflows' tools come from; the orchestrator may call them too. */
  readonly tools?: ToolRegistry | ToolSet;
  /** Sub-runs (run_workflow / start_workflow) in flight at once, across the whole pipeline run. Default 10. */
  readonly maxConcurrentSubRuns?: number;
  /** The pipeline run id; the same id after a crash resumes. Default: a new `pipeline_…` id. */
  readonly runId?: string;
  readonly timeout?: string | number;
  readonly signal?: AbortSignal;
  readonly modelRegistry?: ModelRegistry;
  /**
   * Watches the pipeline live: the pipeline run's events (the orchestrator session) and those of
   * every plan run and sub-run it starts, each tagged with its own `runId` (a sub-run's
   * `RunStarted` names the pipeline as `parentRunId`), in commit order per run; recorded events of
   * a resumed pipeline first (`replayed: true`); live model text deltas (`ephemeral: true`).
   */
  readonly onEvent?: RunEventListener;
};

/** One sub-run of the pipeline as the log records it. */
export type SubRunRecord = {
  readonly runId: string;
  readonly tool: "run_workflow" | "start_workflow";
  readonly workflowVersionId: string;
  readonly status: "completed" | "failed";
};

export type OrchestrationResult = {
  readonly runId: string;
  readonly status: "completed";
  /** The orchestrator's final answer. */
  readonly output: unknown;
  /** The orchestrator session, every plan run and every sub-run, priced now. */
  readonly usage: UsageTotals;
  readonly pipelineKey: string;
  readonly plannedVersions: readonly { readonly workflowId: string; readonly workflowVersionId: string; readonly planRunId: string }[];
  readonly subRuns: readonly SubRunRecord[];
  /** Most sub-runs in flight at once during this call (this process). */
  readonly peakConcurrentSubRuns: number;
};

const call = "runOrchestration";
export const defaultMaxConcurrentSubRuns = 10;

function orchestratorModel(value: unknown): ResolvedModel {
  const spec = isModelSlotSpec(value) ? value : undefined;
  const model = (spec?.model ?? value) as LanguageModelV3 | undefined;
  if (typeof model !== "object" || model === null || model.specificationVersion !== "v3") {
    throw new InvalidOrchestrationOptionsError({ call, field: "orchestrator.model", problem: "is not an AI SDK V3 language model", fix: "Pass orchestrator: { model: openai(\"gpt-5\") }." });
  }
  return { slotId: spec?.id ?? model.modelId, provider: model.provider, modelId: model.modelId, model };
}

function checkOptions(options: RunOrchestrationOptions): void {
  if (!Array.isArray(options.workflows) || options.workflows.length === 0) {
    throw new InvalidOrchestrationOptionsError({ call, field: "workflows", problem: "must be a non-empty array of workflow definitions", fix: "Pass workflows: [defineWorkflow({ … }), …]." });
  }
  options.workflows.forEach((workflow, index) => {
    if (!isWorkflowDefinition(workflow)) throw new InvalidOrchestrationOptionsError({ call, field: `workflows[${index}]`, problem: "is not a workflow definition", fix: "Pass what defineWorkflow({ … }) returns." });
  });
  const ids = options.workflows.map((workflow) => workflow.id);
  const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
  if (repeated !== undefined) throw new InvalidOrchestrationOptionsError({ call, field: "workflows", problem: `has the id "${repeated}" twice`, fix: "Give each workflow its own id." });
  const limit = options.maxConcurrentSubRuns;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 1000)) {
    throw new InvalidOrchestrationOptionsError({ call, field: "maxConcurrentSubRuns", problem: `must be an integer from 1 to 1000, got ${String(limit)}`, fix: "Leave it out for 10." });
  }
  if (typeof options.world?.appendEvents !== "function") throw new InvalidOrchestrationOptionsError({ call, field: "world", problem: "is not a World", fix: "Pass world: localWorld({ dataDir })." });
  if (options.onEvent !== undefined && typeof options.onEvent !== "function") {
    throw new InvalidOrchestrationOptionsError({ call, field: "onEvent", problem: "is not a function", fix: "Pass onEvent: (event) => { … }, or use streamOrchestration for an async iterable." });
  }
  if (typeof options.orchestrator !== "object" || options.orchestrator === null) throw new InvalidOrchestrationOptionsError({ call, field: "orchestrator", problem: "is missing", fix: "Pass orchestrator: { model, system }." });
}

type RecordedToolCall = { readonly toolName: string; readonly args: unknown; readonly result?: unknown };

async function recordedToolCalls(world: World, runId: string): Promise<RecordedToolCall[]> {
  const calls = new Map<string, { toolName: string; args: unknown; result?: unknown }>();
  for (const event of await world.listEvents(runId, { typePrefix: "harness.tool_call." })) {
    const payload = event.payload as { callId: string; toolName: string; args?: unknown; result?: unknown };
    if (event.type === "harness.tool_call.started") calls.set(payload.callId, { toolName: payload.toolName, args: payload.args });
    else if (event.type === "harness.tool_call.succeeded") {
      const entry = calls.get(payload.callId);
      if (entry !== undefined) entry.result = payload.result;
    }
  }
  return [...calls.values()];
}

/**
 * Runs an orchestrator session over several workflows (seed 000, Orchestrator Tools): the
 * orchestrator model gets plan_workflow / run_workflow / start_workflow (plus the given tools and
 * bash over the pipeline memory and scratch) and works until it answers. Every sub-run is its own
 * durable run (parentRunId = the pipeline run). The same `runId` after a crash resumes: recorded
 * model turns and finished tool calls replay, unfinished sub-runs resume from their own logs.
 */
export async function runOrchestration(options: RunOrchestrationOptions): Promise<OrchestrationResult> {
  checkOptions(options);
  const pipelineRunId = options.runId ?? randomId("pipeline");
  const watcher = options.onEvent === undefined ? undefined : new RunEventDispatcher(options.onEvent);
  if (watcher !== undefined) watcher.committed(await options.world.listEvents(pipelineRunId), { replayed: true });
  const world = watcher === undefined ? options.world : worldReportingTo(options.world, watcher);
  const dataDir = world.paths.dataDir;
  const maxConcurrentSubRuns = options.maxConcurrentSubRuns ?? defaultMaxConcurrentSubRuns;
  const registry = toToolRegistry(options.tools);
  const workflows = new Map<string, PipelineWorkflow>();
  for (const definition of options.workflows as readonly WorkflowDefinition[]) {
    await workflowDefinitionReady(definition);
    const tools = resolveRunTools({ call, definition, tools: registry });
    workflows.set(definition.id, { definition, tools, workflowDefinitionHash: await definitionHashOf(definition, tools, world) });
  }
  const key = pipelineKey([...workflows.values()].map((workflow) => workflow.workflowDefinitionHash));
  const mounts = mountsForRole({ role: "orchestrator", dataDir, pipelineRunId, pipelineKey: key, availableWorkflowIds: [...workflows.keys()].sort() });
  await ensureMountDirectories([...mounts.memoryMounts, ...mounts.scratchMounts]);
  const ownScratch = mounts.scratchMounts.find((mount) => mount.mountPath.replace(/\/+$/, "") === virtualPaths.ownScratch)!;
  const skills = await resolveSkills(options.orchestrator.skills ?? [], { dataDir });
  const model = orchestratorModel(options.orchestrator.model);
  const harness = options.orchestrator.harness ?? workflowHarness;
  const harnessId = typeof (harness as { id?: unknown }).id === "string" ? String((harness as { id?: unknown }).id) : "custom";
  const globalTools = await registry.describe();
  const manifest: OrchestratorManifest = {
    harnessId,
    orchestratorModelSlotId: model.slotId,
    systemPromptHash: sha256Digest(options.orchestrator.system ?? ""),
    skillsHash: skills.hash,
    availableWorkflows: [...workflows.values()].map((workflow) => ({ workflowId: workflow.definition.id, workflowDefinitionHash: workflow.workflowDefinitionHash })).sort((left, right) => (left.workflowId < right.workflowId ? -1 : 1)),
    globalToolsHash: globalTools.digest,
    bashCapabilitiesHash: sha256Digest(null),
    memoryStoreIds: memoryStoreIds(mounts.memoryMounts),
    maxConcurrentSubRuns,
  };

  const deadline = new Deadline({ ...(options.timeout === undefined ? {} : { timeout: options.timeout }), ...(options.signal === undefined ? {} : { signal: options.signal }) });
  const recordedPlans = new Map<string, { workflowId: string; input: unknown; planRunId: string }>();
  for (const entry of await recordedToolCalls(world, pipelineRunId)) {
    if (entry.toolName !== "plan_workflow" || entry.result === undefined) continue;
    const result = entry.result as { workflowVersionId: string; planRunId: string };
    const args = entry.args as { workflowId: string; input: unknown };
    recordedPlans.set(result.workflowVersionId, { workflowId: args.workflowId, input: args.input, planRunId: result.planRunId });
  }
  const context: PipelineContext = {
    pipelineRunId,
    world,
    workflows,
    planned: new Map(),
    planning: new Map(),
    recordedPlans,
    slots: new SubRunSlots(maxConcurrentSubRuns),
    deadline,
    scratchHostPath: ownScratch.hostPath,
    scratchMountPath: virtualPaths.ownScratch,
    ...(options.modelRegistry === undefined ? {} : { modelRegistry: options.modelRegistry }),
    ...(watcher === undefined ? {} : { watcher }),
  };
  const ctx: WorkflowHarnessContext = {
    scope: { runId: pipelineRunId, logDir: join(world.paths.runs, pipelineRunId), role: "orchestrator" },
    model,
    ...(options.orchestrator.system === undefined ? {} : { system: options.orchestrator.system }),
    tools: { ...registry.tools, ...createOrchestratorTools(context) },
    memoryMounts: mounts.memoryMounts,
    scratchMounts: mounts.scratchMounts,
    skills: skills.skills.map((skill) => ({ name: skill.name, description: skill.description, source: skill.source, contentHash: skill.contentHash })),
    mounts: skillStaging(skills.skills),
    durability: {
      ...harnessEventSinkFromWorld(world, pipelineRunId),
      ...(watcher === undefined ? {} : { onModelDelta: (delta: ModelDelta) => watcher.modelDelta(pipelineRunId, delta) }),
    },
    abortSignal: deadline.signal,
    manifest,
  };
  let output: unknown;
  try {
    const available = await Promise.all([...workflows.values()].map((workflow) => definitionSnapshotOf(workflow.definition, workflow.tools, world)));
    const task = { kind: "orchestrate" as const, available, input: options.input ?? null };
    let result = await harness.run(task, ctx);
    if (result.kind === "delegate_to_default") result = await workflowHarness.run(task, ctx);
    if (result.kind !== "orchestrate") {
      throw new InvalidOrchestrationOptionsError({ call, field: "orchestrator.harness", problem: `answered the orchestrate task with "${result.kind}"`, fix: "A custom orchestrator harness must return { kind: \"orchestrate\", output }." });
    }
    output = result.output;
  } finally {
    deadline.dispose();
  }
  return summarize({ world, pipelineRunId, output, pipelineKey: key, peak: context.slots.peak, ...(options.modelRegistry === undefined ? {} : { modelRegistry: options.modelRegistry }) });
}

async function summarize(options: { readonly world: World; readonly pipelineRunId: string; readonly output: unknown; readonly pipelineKey: string; readonly peak: number; readonly modelRegistry?: ModelRegistry }): Promise<OrchestrationResult> {
  const { world, pipelineRunId } = options;
  const calls = await recordedToolCalls(world, pipelineRunId);
  const plannedVersions = new Map<string, { workflowId: string; workflowVersionId: string; planRunId: string }>();
  const subRuns: SubRunRecord[] = [];
  for (const entry of calls) {
    if (entry.result === undefined) continue;
    const result = entry.result as { workflowId?: string; workflowVersionId: string; planRunId?: string; runId?: string; status?: "completed" | "failed" };
    if (entry.toolName === "plan_workflow") plannedVersions.set(result.planRunId!, { workflowId: result.workflowId!, workflowVersionId: result.workflowVersionId, planRunId: result.planRunId! });
    if (entry.toolName === "run_workflow" || entry.toolName === "start_workflow") subRuns.push({ runId: result.runId!, tool: entry.toolName, workflowVersionId: result.workflowVersionId, status: result.status! });
  }
  const registry = options.modelRegistry === undefined ? {} : { modelRegistry: options.modelRegistry };
  const runIds = [pipelineRunId, ...plannedVersions.keys(), ...subRuns.map((subRun) => subRun.runId)];
  const usages = await Promise.all(runIds.map(async (runId) => materializeRunState(await world.listEvents(runId), { runId, ...registry }).usage));
  return {
    runId: pipelineRunId,
    status: "completed",
    output: options.output,
    usage: usages.length === 0 ? emptyUsageTotals() : sumUsageTotals(usages),
    pipelineKey: options.pipelineKey,
    plannedVersions: [...plannedVersions.values()],
    subRuns,
    peakConcurrentSubRuns: options.peak,
  };
}
