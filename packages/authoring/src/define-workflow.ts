import type { LanguageModelV3 } from "@ai-sdk/provider";
import { LittleWorkflowError, snapshotIfJson } from "@little-stack/canonical";
import { bashCapabilityProblem, createToolRegistry, workflowHarness, type Harness, type ToolRegistry, type WorkflowBashCapabilities } from "@little-stack/harness";
import { normalizeOutputMode, normalizeSchema, schemasEquivalent, validateLwir, type JsonSchema, type LwirDocument, type LwirOutputMode } from "@little-stack/lwir";
import { checkStoreName, resolveMemoryConfig, type MemoryConfig, type ResolvedMemoryConfig } from "@little-stack/memory";
import { isSkillReference, skill, type SkillReference } from "@little-stack/skills";
import type { ToolSet } from "ai";
import { WorkflowDefinitionError, type WorkflowDefinitionErrorCode } from "./errors/workflow-definition-error.js";
import { fixedPlanHarness } from "./fixed-plan-harness.js";
import type { InferOutputMode, InferSchemaInput } from "./infer-schema.js";
import { describeValue, isModelSlotSpec, requireLanguageModel, type ModelSlotSpec } from "./model.js";
import { assignModelSlotIds, type ModelSlot } from "./model-slot-ids.js";
import { deferOutput, isDeferredOutputSpec, registerDeferredDefinition, type DeferredOutput } from "./deferred-output.js";
import { outputSchemaOfMode } from "./output-schema-of-mode.js";
import type { PlannerConfig, SuperviseDecision, SuperviseRequest, WorkerConfig, WorkflowDefinition } from "./workflow-definition.js";

export type PlannerOptions = {
  /** The planner's own model (required unless the workflow has a fixed `plan`). */
  readonly model?: LanguageModelV3 | ModelSlotSpec;
  /** The developer's intent for the planner (first section of its system prompt). */
  readonly system?: string;
  /** Default: the SDK's `workflowHarness`. */
  readonly harness?: Harness;
  /** Skills for the planner session (`skill("./skills/review")` or a path / pinned git URL). */
  readonly skills?: readonly (SkillReference | string)[];
  /** Workflow revisions the planner may submit before the compile fails. Default 5. */
  readonly maxWorkflowRevisions?: number;
  /** Outer-loop cycles (compile + run) at most. Default 1. */
  readonly maxOuterCycles?: number;
  readonly supervise?: (request: SuperviseRequest) => SuperviseDecision | Promise<SuperviseDecision>;
};

export type WorkerOptions = {
  /** Default: the SDK's `workflowHarness`. */
  readonly harness?: Harness;
  readonly skills?: readonly (SkillReference | string)[];
};

export type DefineWorkflowOptions<TInputSchema = unknown, TOutputSpec = unknown> = {
  readonly id: string;
  readonly description?: string;
  /** Zod v4 schema, JSON Schema (LWIR subset) or AI SDK `jsonSchema(...)`. */
  readonly input?: TInputSchema;
  /** A schema (object output) or an output mode: `{ kind: "text" }`, `{ kind: "array", element }`, `{ kind: "choice", values }` … */
  readonly output?: TOutputSpec;
  /** Execution models, as `model(languageModel, { description, id })` or bare V3 models. */
  readonly models?: readonly (ModelSlotSpec | LanguageModelV3)[];
  /** One execution model (same as `models: [model]`). */
  readonly model?: ModelSlotSpec | LanguageModelV3;
  /** Tool names (resolved against the run's registry), or AI SDK tools given inline (a record or a registry). */
  readonly tools?: readonly string[] | ToolSet | ToolRegistry;
  readonly planner?: PlannerOptions;
  readonly worker?: WorkerOptions;
  readonly memory?: MemoryConfig;
  /** What the bash tool may do beyond its mounts. */
  readonly bash?: WorkflowBashCapabilities;
  /** A fixed LWIR plan: compiled without any model call. */
  readonly plan?: LwirDocument;
};

type InferredInput<T> = [T] extends [undefined] ? unknown : InferSchemaInput<T>;
type InferredOutput<T> = [T] extends [undefined] ? unknown : InferOutputMode<T>;

const toolNamePattern = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

class DefinitionContext {
  constructor(readonly workflowId: string | undefined) {}

  fail(code: WorkflowDefinitionErrorCode, field: string, problem: string, fix: string, extra: { cause?: unknown; details?: Record<string, unknown> } = {}): never {
    throw new WorkflowDefinitionError({ code, field, problem, fix, ...(this.workflowId === undefined ? {} : { workflowId: this.workflowId }), ...extra });
  }
}

function isLiveValidator(value: unknown): boolean {
  return typeof value === "function" || (typeof value === "object" && value !== null && "~standard" in value && !("_zod" in value));
}

function normalizeInput(value: unknown, context: DefinitionContext): JsonSchema {
  if (value === undefined) return true;
  if (isLiveValidator(value)) {
    context.fail("definition.live_validator", "input", `is ${describeValue(value)}, a live validator`, "LWIR locks JSON Schema, never executable validation code: pass a Zod v4 schema or a JSON Schema instead.");
  }
  try {
    return normalizeSchema(value);
  } catch (error) {
    if (!LittleWorkflowError.is(error)) throw error;
    return context.fail("definition.invalid_schema", "input", `is not usable as a workflow input schema: ${error.message}`, "Use only the LWIR JSON Schema subset (lwir.md §5).", { cause: error });
  }
}

function normalizeOutput(value: unknown, context: DefinitionContext): LwirOutputMode {
  if (value === undefined) return { mode: "json" };
  if (isLiveValidator(value)) {
    context.fail("definition.live_validator", "output", `is ${describeValue(value)}, a live validator`, "LWIR locks JSON Schema, never executable validation code: pass a Zod v4 schema, a JSON Schema or an output mode.");
  }
  try {
    return normalizeOutputMode(value);
  } catch (error) {
    if (!LittleWorkflowError.is(error)) throw error;
    return context.fail("definition.invalid_schema", "output", `is not a usable output: ${error.message}`, outputFix, { cause: error });
  }
}

function normalizeModels(options: DefineWorkflowOptions, context: DefinitionContext): ModelSlot[] {
  if (options.model !== undefined && options.models !== undefined) {
    context.fail("definition.invalid_field", "model", "and models are both given", "Use models: [...] for several models, or model for one.");
  }
  if (options.models !== undefined && !Array.isArray(options.models)) {
    context.fail("definition.invalid_field", "models", `must be an array, got ${describeValue(options.models)}`, "Write models: [model(openai(\"gpt-4o-mini\"))].");
  }
  if (options.model !== undefined && !isModelSlotSpec(options.model)) requireLanguageModel(options.model, "model", context.workflowId);
  const entries = options.model !== undefined ? [options.model] : (options.models ?? []);
  return assignModelSlotIds(entries, { field: options.model !== undefined ? "model" : "models", ...(context.workflowId === undefined ? {} : { workflowId: context.workflowId }) });
}

function isToolRegistry(value: unknown): value is ToolRegistry {
  return typeof value === "object" && value !== null && typeof (value as ToolRegistry).describe === "function" && Array.isArray((value as ToolRegistry).names);
}

function normalizeTools(value: unknown, context: DefinitionContext): { globalTools: string[]; inlineTools?: ToolRegistry } {
  if (value === undefined) return { globalTools: [] };
  if (Array.isArray(value)) {
    const seen = new Set<string>();
    value.forEach((name: unknown, index) => {
      const field = `tools[${index}]`;
      if (typeof name !== "string" || !toolNamePattern.test(name)) {
        context.fail("definition.unknown_tool", field, `is ${describeValue(name)}, not a tool name`, "Tool names match [A-Za-z_][A-Za-z0-9_-]{0,63} and name a tool of the registry passed at run time (or pass the AI SDK tools inline: tools: { name: tool({...}) }).");
      }
      if (seen.has(name)) context.fail("definition.invalid_field", field, `repeats the tool "${name}"`, "List each tool once.");
      seen.add(name);
    });
    return { globalTools: [...seen].sort() };
  }
  if (isToolRegistry(value)) return { globalTools: [...value.names], inlineTools: value };
  if (typeof value !== "object" || value === null) {
    return context.fail("definition.invalid_field", "tools", `must be an array of tool names or a record of AI SDK tools, got ${describeValue(value)}`, "Write tools: [\"parsePdf\"] or tools: { parsePdf: tool({...}) }.");
  }
  try {
    const registry = createToolRegistry(value as ToolSet);
    return { globalTools: [...registry.names], inlineTools: registry };
  } catch (error) {
    if (!LittleWorkflowError.is(error)) throw error;
    return context.fail("definition.unknown_tool", "tools", `is not a valid tool record: ${error.message}`, "Each entry must be an AI SDK tool({ description, inputSchema, execute }) under a valid name.", { cause: error });
  }
}

function normalizeSkills(value: unknown, field: string, context: DefinitionContext): SkillReference[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return context.fail("definition.invalid_field", field, `must be an array, got ${describeValue(value)}`, "Write skills: [skill(\"./skills/review\")].");
  return value.map((entry: unknown, index) => {
    if (isSkillReference(entry)) return entry;
    if (typeof entry !== "string") return context.fail("definition.invalid_field", `${field}[${index}]`, `is ${describeValue(entry)}`, "Use skill(pathOrPinnedGitUrl) or a path string.");
    try {
      return skill(entry);
    } catch (error) {
      if (!LittleWorkflowError.is(error)) throw error;
      return context.fail("definition.invalid_field", `${field}[${index}]`, `is not a usable skill source: ${error.message}`, "Give a local skill directory or a git URL pinned to a full commit.", { cause: error });
    }
  });
}

function harnessIdOf(harness: Harness): string {
  const id = (harness as { readonly id?: unknown }).id;
  return typeof id === "string" && id.length > 0 ? id : "custom";
}

function requireHarness(value: unknown, field: string, context: DefinitionContext): Harness | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || typeof (value as Harness).run !== "function") {
    return context.fail("definition.invalid_field", field, `must be a Harness ({ run(task, ctx) }), got ${describeValue(value)}`, "Pass a harness object, or leave it out for the default workflowHarness.");
  }
  return value as Harness;
}

function positiveInteger(value: unknown, field: string, fallback: number, context: DefinitionContext): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > 100) {
    return context.fail("definition.invalid_field", field, `must be an integer from 1 to 100, got ${describeValue(value)}`, `Leave it out for the default (${fallback}).`);
  }
  return value;
}

function checkFixedPlan(options: { plan: unknown; workflowId: string; models: readonly ModelSlot[]; globalTools: readonly string[]; context: DefinitionContext }): LwirDocument {
  const { context } = options;
  // A frozen shared snapshot first: what the caller does to its object later cannot change the
  // definition (or its hash), the copy's canonical text is made once for every run of the plan,
  // and the verdict validateLwir keeps with it spares the compiler and the runtime their checks.
  const plan = snapshotIfJson(options.plan, { share: true });
  const checked = validateLwir(plan);
  if (!checked.valid) {
    const lines = checked.findings.slice(0, 10).map((finding) => `${finding.path} ${finding.code}: ${finding.message}`);
    context.fail("definition.invalid_plan", "plan", `is not a valid LWIR document (${checked.findings.length} finding(s)):\n  ${lines.join("\n  ")}\n`, "Fix these findings (validate with `little validate`), or drop plan to let the planner design the workflow.", { details: { findings: checked.findings } });
  }
  const document = plan as LwirDocument;
  if (document.metadata.name !== options.workflowId) {
    context.fail("definition.invalid_plan", "plan.metadata.name", `is "${document.metadata.name}" but the workflow id is "${options.workflowId}"`, "Set metadata.name to the workflow id.");
  }
  const slotIds = new Set(options.models.map((slot) => slot.id));
  (document.permissions?.models ?? []).forEach((name, index) => {
    if (!slotIds.has(name)) {
      context.fail("definition.unknown_model", `plan.permissions.models[${index}]`, `names the model slot "${name}", which the workflow does not define (slots: ${[...slotIds].join(", ") || "none"})`, "Add the model to models, or use one of the defined slot ids.");
    }
  });
  const tools = new Set(options.globalTools);
  (document.permissions?.tools ?? []).forEach((name, index) => {
    if (!tools.has(name)) {
      context.fail("definition.unknown_tool", `plan.permissions.tools[${index}]`, `names the tool "${name}", which is not in the workflow's tools (${[...tools].join(", ") || "none"})`, "Add the tool to tools, or remove it from the plan.");
    }
  });
  return document;
}


/**
 * The definition's input schema and output mode. With a fixed plan, one left out is taken from
 * the plan, and one given must equal the plan's up to normalization (`$schema`, annotations,
 * `additionalProperties: false` — what Zod adds); a real difference fails here, naming both.
 */
function schemasWithPlan(options: { options: DefineWorkflowOptions; plan: LwirDocument | undefined; context: DefinitionContext }): { inputSchema: JsonSchema; output: LwirOutputMode | DeferredOutput } {
  const { plan, context } = options;
  const given = options.options;
  const inputSchema = given.input === undefined && plan !== undefined ? plan.input.schema : normalizeInput(given.input, context);
  if (plan !== undefined) requireSameAsPlan("input", inputSchema, plan.input.schema, context);
  if (isDeferredOutputSpec(given.output)) {
    const output = deferOutput({
      spec: given.output,
      finish: (mode) => {
        if (plan !== undefined) requireSameAsPlan("output", outputSchemaOfMode(mode), plan.output.schema, context);
        return { output: mode, outputSchema: outputSchemaOfMode(mode) };
      },
      failure: (error) => outputFailure(error, context),
    });
    return { inputSchema, output };
  }
  const output = given.output === undefined && plan !== undefined ? { mode: "json" as const, schema: plan.output.schema } : normalizeOutput(given.output, context);
  if (plan !== undefined) requireSameAsPlan("output", outputSchemaOfMode(output), plan.output.schema, context);
  return { inputSchema, output };
}

function requireSameAsPlan(field: "input" | "output", definitionSchema: unknown, planSchema: unknown, context: DefinitionContext): void {
  if (schemasEquivalent(definitionSchema as JsonSchema, planSchema as JsonSchema)) return;
  context.fail(
    "definition.invalid_plan",
    `plan.${field}.schema`,
    `differs from the definition's ${field} schema: the plan has ${JSON.stringify(planSchema)}, the definition ${JSON.stringify(definitionSchema)}`,
    `Make them describe the same values (only $schema, annotations and additionalProperties: false may differ), or leave ${field} out of defineWorkflow to take the plan's.`,
  );
}

function outputFailure(error: unknown, context: DefinitionContext): WorkflowDefinitionError {
  try {
    return context.fail("definition.invalid_schema", "output", `is not a usable output: ${error instanceof Error ? error.message : String(error)}`, outputFix, { cause: error });
  } catch (failure) {
    return failure as WorkflowDefinitionError;
  }
}

const outputFix = "Give a schema of the LWIR subset or an output mode ({ kind: \"text\" }, { kind: \"object\", schema }, { kind: \"array\", element }, { kind: \"choice\", values }, { kind: \"json\" }, or the AI SDK's Output.text/object/array/choice).";

function normalizePlanner(options: DefineWorkflowOptions, models: readonly ModelSlot[], globalTools: readonly string[], context: DefinitionContext): PlannerConfig {
  const planner = options.planner ?? {};
  if (typeof planner !== "object" || planner === null) {
    return context.fail("definition.invalid_field", "planner", `must be an object, got ${describeValue(planner)}`, "Write planner: { model: openai(\"gpt-5\"), system: \"…\" }.");
  }
  if (planner.system !== undefined && typeof planner.system !== "string") {
    context.fail("definition.invalid_field", "planner.system", `must be a string, got ${describeValue(planner.system)}`, "Describe the planner's job in plain text.");
  }
  const maxWorkflowRevisions = positiveInteger(planner.maxWorkflowRevisions, "planner.maxWorkflowRevisions", 5, context);
  const maxOuterCycles = positiveInteger(planner.maxOuterCycles, "planner.maxOuterCycles", 1, context);
  if (planner.supervise !== undefined && typeof planner.supervise !== "function") {
    context.fail("definition.invalid_field", "planner.supervise", `must be a function, got ${describeValue(planner.supervise)}`, "Pass async ({ goal, cycles }) => ({ kind: \"done\", finalOutput }) | ({ kind: \"continue\" }).");
  }
  const skills = normalizeSkills(planner.skills, "planner.skills", context);
  const common = {
    ...(planner.system === undefined ? {} : { system: planner.system }),
    skills,
    maxWorkflowRevisions,
    maxOuterCycles,
    ...(planner.supervise === undefined ? {} : { supervise: planner.supervise }),
  };
  if (options.plan !== undefined) {
    if (planner.model !== undefined || planner.harness !== undefined) {
      context.fail("definition.invalid_field", "plan", "is given together with planner.model or planner.harness", "A fixed plan needs no planner model or harness: remove one or the other.");
    }
    const fixedPlan = checkFixedPlan({ plan: options.plan, workflowId: options.id, models, globalTools, context });
    const harness = fixedPlanHarness(fixedPlan);
    return Object.freeze({ ...common, modelSlotId: "fixed-plan", harness, harnessId: harness.id, fixedPlan });
  }
  if (planner.model === undefined) {
    return context.fail("definition.missing_planner_model", "planner.model", "is missing", "Give the planner its own model (planner: { model: openai(\"gpt-5\") }), or give a fixed plan with plan: <LWIR>.");
  }
  // The planner's slot is private: its id is derived alone, never colliding with execution slots.
  if (!isModelSlotSpec(planner.model)) requireLanguageModel(planner.model, "planner.model", options.id);
  const modelSlot = assignModelSlotIds([planner.model], { field: "planner.model", workflowId: options.id })[0] as ModelSlot;
  const harness = requireHarness(planner.harness, "planner.harness", context) ?? workflowHarness;
  return Object.freeze({ ...common, model: modelSlot, modelSlotId: modelSlot.id, harness, harnessId: harnessIdOf(harness) });
}

function normalizeWorker(options: DefineWorkflowOptions, context: DefinitionContext): WorkerConfig {
  const worker = options.worker ?? {};
  if (typeof worker !== "object" || worker === null) {
    return context.fail("definition.invalid_field", "worker", `must be an object, got ${describeValue(worker)}`, "Write worker: { harness, skills }, or leave it out.");
  }
  const harness = requireHarness(worker.harness, "worker.harness", context) ?? workflowHarness;
  return Object.freeze({ harness, harnessId: harnessIdOf(harness), skills: normalizeSkills(worker.skills, "worker.skills", context) });
}

function normalizeMemory(value: unknown, workflowId: string, context: DefinitionContext): ResolvedMemoryConfig {
  try {
    return resolveMemoryConfig(value, { ownWorkflowId: workflowId, path: "memory" });
  } catch (error) {
    if (!LittleWorkflowError.is(error)) throw error;
    const path = typeof (error as { path?: unknown }).path === "string" ? (error as unknown as { path: string }).path : "memory";
    return context.fail("definition.invalid_field", path, `is invalid: ${error.message}`, "Use { workflow?: \"rw\" | \"ro\" | \"none\", org?: …, attach?: [workflowId] }.", { cause: error });
  }
}

/**
 * Defines a workflow (seed 000, Public API Contract). Normalizes the options into a frozen
 * `WorkflowDefinition`: `input` → `inputSchema` (JSON Schema), `output` → an LWIR output mode,
 * `model`/`models` → slots with final ids, `tools` → sorted `globalTools` (+ `inlineTools` for AI
 * SDK tools given inline), `plan` → a fixed-plan planner. Every mistake throws a
 * `WorkflowDefinitionError` naming the field and the fix; nothing is read from disk or the network.
 */
export function defineWorkflow<const TInputSchema = undefined, const TOutputSpec = undefined>(
  options: DefineWorkflowOptions<TInputSchema, TOutputSpec>,
): WorkflowDefinition<InferredInput<TInputSchema>, InferredOutput<TOutputSpec>> {
  if (typeof options !== "object" || options === null) {
    throw new WorkflowDefinitionError({ code: "definition.invalid_field", field: "options", problem: `must be an object, got ${describeValue(options)}`, fix: "Call defineWorkflow({ id, input, output, models, planner })." });
  }
  const idProblem = typeof options.id === "string" ? checkStoreName(options.id) : `is ${describeValue(options.id)}`;
  if (idProblem !== undefined) {
    throw new WorkflowDefinitionError({ code: "definition.invalid_field", field: "id", problem: idProblem, fix: "Use an id like \"candidate.review\": a letter or digit first, then letters, digits, '.', '_' or '-' (it names the workflow's memory store)." });
  }
  const context = new DefinitionContext(options.id);
  if (options.description !== undefined && typeof options.description !== "string") {
    context.fail("definition.invalid_field", "description", `must be a string, got ${describeValue(options.description)}`, "Describe the workflow in a sentence.");
  }
  const untyped = options as DefineWorkflowOptions;
  const models = normalizeModels(untyped, context);
  const tools = normalizeTools(untyped.tools, context);
  const planner = normalizePlanner(untyped, models, tools.globalTools, context);
  const { inputSchema, output } = schemasWithPlan({ options: untyped, plan: planner.fixedPlan, context });
  const worker = normalizeWorker(untyped, context);
  const memory = normalizeMemory(untyped.memory, options.id, context);
  const deferred = "settled" in output ? output : undefined;
  const settledOutput = deferred === undefined ? (output as LwirOutputMode) : undefined;
  const definition = {
    kind: "workflow-definition",
    id: options.id,
    description: options.description ?? "",
    inputSchema,
    ...(settledOutput === undefined ? {} : { output: settledOutput, outputSchema: outputSchemaOfMode(settledOutput) }),
    models: Object.freeze(models),
    globalTools: Object.freeze(tools.globalTools),
    ...(tools.inlineTools === undefined ? {} : { inlineTools: tools.inlineTools }),
    planner,
    worker,
    memory,
    ...(untyped.bash === undefined ? {} : { bash: normalizeBash(untyped.bash, context) }),
  } as WorkflowDefinition;
  if (deferred !== undefined) defineDeferredFields(definition, deferred, context);
  return Object.freeze(definition) as WorkflowDefinition<InferredInput<TInputSchema>, InferredOutput<TOutputSpec>>;
}

/** `output` and `outputSchema` as getters over an AI SDK Output that is still resolving (deferred-output.ts). */
function defineDeferredFields(definition: WorkflowDefinition, deferred: DeferredOutput, context: DefinitionContext): void {
  const read = <K extends "output" | "outputSchema">(key: K) => () => {
    const state = deferred.current();
    if (state === undefined) {
      return context.fail("definition.output_pending", "output", "is an AI SDK Output whose JSON schema resolves asynchronously and has not resolved yet", "Await workflowDefinitionReady(definition) before reading output or outputSchema; runWorkflow, streamWorkflow, compileWorkflow and runOrchestration do it themselves.");
    }
    if (state instanceof WorkflowDefinitionError) throw state;
    return state[key];
  };
  Object.defineProperty(definition, "output", { enumerable: true, get: read("output") });
  Object.defineProperty(definition, "outputSchema", { enumerable: true, get: read("outputSchema") });
  registerDeferredDefinition(definition, deferred);
}

// An option the shell cannot honour is refused here, never hashed into the manifests and ignored.
function normalizeBash(value: unknown, context: DefinitionContext): WorkflowBashCapabilities {
  const found = bashCapabilityProblem(value);
  if (found === undefined) return value as WorkflowBashCapabilities;
  return context.fail("definition.invalid_field", `bash${found.path}`, found.problem.replace(/\.$/, ""), "bash is { network?: { allow: [urlPrefix, …], methods?, denyPrivateRanges? }, maxCommands?, timeoutMs? } (the harness README's bash tool section).");
}

/** True for values made by `defineWorkflow`. */
export function isWorkflowDefinition(value: unknown): value is WorkflowDefinition {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "workflow-definition";
}
