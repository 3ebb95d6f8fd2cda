import type { WorkflowDefinition } from "@little-stack/authoring";
import { LittleWorkflowError, sha256Digest } from "@little-stack/canonical";
import {
  harnessEventSinkFromWorld,
  type OuterLoopContext,
  type PlannerManifest,
  type ResolvedModel,
  type ToolRegistry,
  type WorkflowDefinitionSnapshot,
  type WorkflowHarnessContext,
} from "@little-stack/harness";
import type { World } from "@little-stack/local-world";
import { createSchemaValidator, registerWorkflowVersion, type LwirFinding } from "@little-stack/lwir";
import { memoryStoreIds, mountsForRole } from "@little-stack/memory";
import { RunFailedError, type WorkflowVersionLike } from "@little-stack/runtime";
import type { Tool, ToolSet } from "ai";
import { join } from "node:path";

export type CompiledRun = {
  readonly workflowVersion: WorkflowVersionLike;
  readonly workflowDefinitionHash: string;
};

export type CompileForRunOptions = {
  readonly definition: WorkflowDefinition;
  readonly input: unknown;
  readonly world: World;
  readonly runId: string;
  /** The registry of exactly the workflow's tools. */
  readonly tools: ToolRegistry;
  readonly signal: AbortSignal;
  readonly outerLoopContext?: OuterLoopContext;
  readonly parentRunId?: string;
};

/** The snapshot a planner sees of a definition (seed 001, stage 3). */
export async function definitionSnapshotOf(definition: WorkflowDefinition, tools: ToolRegistry): Promise<WorkflowDefinitionSnapshot & Record<string, unknown>> {
  const described = await tools.describe();
  return {
    id: definition.id,
    description: definition.description,
    inputSchemaHash: sha256Digest(definition.inputSchema),
    outputSchemaHash: sha256Digest(definition.outputSchema),
    modelSlots: definition.models.map((slot) => ({ id: slot.id, providerId: slot.providerId, modelId: slot.modelId, description: slot.description })),
    plannerConfig: {
      modelSlotId: definition.planner.modelSlotId,
      harnessId: definition.planner.harnessId,
      systemHash: sha256Digest(definition.planner.system ?? ""),
      skillsHash: sha256Digest(definition.planner.skills.map((reference) => String((reference as { source?: unknown }).source ?? reference))),
    },
    workerConfig: { harnessId: definition.worker.harnessId, skillsHash: sha256Digest(definition.worker.skills.map((reference) => String((reference as { source?: unknown }).source ?? reference))) },
    globalTools: [...definition.globalTools].sort(),
    memoryConfig: { workflow: definition.memory.workflow, org: definition.memory.org, attached: definition.memory.attach.map((workflowId) => ({ workflowId, mode: "ro" })) },
    inputSchema: definition.inputSchema,
    outputSchema: definition.outputSchema,
    requestedOutput: definition.output,
    tools: described.tools,
    globalToolsHash: described.digest,
  };
}

/** `WorkflowDefinitionHash` of a definition against the tools it will run with. */
export async function definitionHashOf(definition: WorkflowDefinition, tools: ToolRegistry): Promise<string> {
  return sha256Digest(await definitionSnapshotOf(definition, tools));
}

function bindingFindings(definition: WorkflowDefinition, lwir: unknown): LwirFinding[] {
  const document = lwir as { metadata?: { name?: unknown }; input?: { schema?: unknown }; output?: { schema?: unknown }; permissions?: { models?: unknown; tools?: unknown } };
  const findings: LwirFinding[] = [];
  const finding = (code: string, path: string, message: string): void => {
    findings.push({ severity: "error", code, path, message } as unknown as LwirFinding);
  };
  if (document.metadata?.name !== definition.id) finding("binding.name_mismatch", "$.metadata.name", `metadata.name must be the workflow id "${definition.id}".`);
  if (sha256Digest(document.input?.schema ?? null) !== sha256Digest(definition.inputSchema)) finding("binding.input_schema_mismatch", "$.input.schema", "LWIR input schema must match the workflow definition's input schema.");
  if (sha256Digest(document.output?.schema ?? null) !== sha256Digest(definition.outputSchema)) finding("binding.output_schema_mismatch", "$.output.schema", "LWIR output schema must match the workflow definition's output schema.");
  const slots = new Set(definition.models.map((slot) => slot.id));
  const models = Array.isArray(document.permissions?.models) ? (document.permissions.models as unknown[]) : [];
  models.forEach((name, index) => {
    if (!slots.has(String(name))) finding("binding.unknown_model", `$.permissions.models[${index}]`, `"${String(name)}" is not a model slot of the workflow.`);
  });
  const allowed = new Set(definition.globalTools);
  const tools = Array.isArray(document.permissions?.tools) ? (document.permissions.tools as unknown[]) : [];
  tools.forEach((name, index) => {
    if (!allowed.has(String(name))) finding("binding.unknown_tool", `$.permissions.tools[${index}]`, `"${String(name)}" is not one of the workflow's tools.`);
  });
  return findings;
}

function descriptorsOnly(tools: ToolRegistry): ToolSet {
  const described: ToolSet = {};
  for (const name of tools.names) {
    const { execute: _execute, ...rest } = tools.get(name) as Tool & { execute?: unknown };
    described[name] = rest as Tool;
  }
  return described;
}

function plannerModel(definition: WorkflowDefinition): ResolvedModel {
  const slot = definition.planner.model;
  if (slot !== undefined) return { slotId: slot.id, provider: slot.providerId, modelId: slot.modelId, model: slot.model };
  // A fixed plan calls no model; the context still needs one, so give one that refuses to answer.
  const refuse = async (): Promise<never> => {
    throw new Error(`workflow "${definition.id}" has a fixed plan and no planner model`);
  };
  return { slotId: "fixed-plan", provider: "none", modelId: "fixed-plan", model: { specificationVersion: "v3", provider: "none", modelId: "fixed-plan", supportedUrls: {}, doGenerate: refuse, doStream: refuse } };
}

/**
 * Compiles a definition for one run: input validated, planner session (durable, in the run's own
 * log), validation and binding, registered version. A resumed run fast-forwards the planner.
 *
 * Stand-in until @little-stack/compiler exports `compileWorkflow`: this is the one place that
 * compiles, so switching to the compiler changes nothing else.
 */
export async function compileForRun(options: CompileForRunOptions): Promise<CompiledRun> {
  const { definition, runId } = options;
  const inputCheck = createSchemaValidator(definition.inputSchema)(options.input ?? null);
  if (!inputCheck.valid) {
    const lines = inputCheck.errors.slice(0, 10).map((error) => `${error.path} ${error.message}`);
    throw new RunFailedError({ runId, workflowVersionId: "", causeCode: "input_schema_error", message: `the input does not match the input schema of workflow "${definition.id}": ${lines.join("; ")}` });
  }
  const snapshot = await definitionSnapshotOf(definition, options.tools);
  const workflowDefinitionHash = sha256Digest(snapshot);
  const dataDir = options.world.paths.dataDir;
  const mounts = mountsForRole({ role: "planner", dataDir, runId, workflowId: definition.id, memory: definition.memory } as never);
  const manifest: PlannerManifest = {
    harnessId: definition.planner.harnessId,
    plannerModelSlotId: definition.planner.modelSlotId,
    systemPromptHash: sha256Digest(definition.planner.system ?? ""),
    skillsHash: snapshot.plannerConfig.skillsHash,
    workflowDefinitionHash,
    globalToolsHash: String(snapshot.globalToolsHash),
    bashCapabilitiesHash: sha256Digest(definition.bash ?? null),
    memoryStoreIds: memoryStoreIds(mounts.memoryMounts),
    ...(options.outerLoopContext === undefined ? {} : { outerLoopContextHash: sha256Digest(options.outerLoopContext) }),
  };
  const ctx: WorkflowHarnessContext = {
    scope: { runId, logDir: join(options.world.paths.runs, runId), role: "planner", ...(options.parentRunId === undefined ? {} : { parentRunId: options.parentRunId }) },
    model: plannerModel(definition),
    ...(definition.planner.system === undefined ? {} : { system: definition.planner.system }),
    tools: descriptorsOnly(options.tools),
    memoryMounts: mounts.memoryMounts,
    scratchMounts: mounts.scratchMounts,
    skills: [],
    mounts: [],
    durability: harnessEventSinkFromWorld(options.world, runId),
    abortSignal: options.signal,
    manifest,
    planning: { maxWorkflowRevisions: definition.planner.maxWorkflowRevisions, validateWorkflow: (lwir) => bindingFindings(definition, lwir) },
  };
  let result;
  try {
    result = await definition.planner.harness.run({ kind: "plan", workflowSnapshot: snapshot, input: options.input ?? null, ...(options.outerLoopContext === undefined ? {} : { outerLoopContext: options.outerLoopContext }) }, ctx);
  } catch (error) {
    if (LittleWorkflowError.is(error, "harness.plan_revisions_exhausted") || LittleWorkflowError.is(error, "harness.plan_not_submitted")) {
      throw new RunFailedError({ runId, workflowVersionId: "", causeCode: "planner_validation_exhausted", message: error.message, cause: error });
    }
    throw error;
  }
  if (result.kind !== "plan") throw new RunFailedError({ runId, workflowVersionId: "", causeCode: "runtime_config_error", message: `the planner harness answered a plan task with "${result.kind}"` });
  const version = registerWorkflowVersion(result.lwir as never);
  return { workflowVersion: { id: version.id, hash: version.hash, lwir: version.lwir as never, workflowDefinitionHash }, workflowDefinitionHash };
}
