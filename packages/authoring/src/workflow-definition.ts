import type { Harness } from "@little-stack/harness";
import type { ToolRegistry, WorkflowBashCapabilities } from "@little-stack/harness";
import type { JsonSchema, LwirDocument, LwirOutputMode } from "@little-stack/lwir";
import type { ResolvedMemoryConfig } from "@little-stack/memory";
import type { SkillReference } from "@little-stack/skills";
import type { ModelSlot } from "./model-slot-ids.js";

/** Carries the inferred input/output types of a definition; never present at run time. */
declare const workflowTypes: unique symbol;

/** What `planner.supervise` receives after each outer-loop cycle (seed 000, Outer Loop). */
export type SuperviseRequest = {
  readonly goal: unknown;
  readonly cycles: readonly { readonly cycleNumber: number; readonly status: string; readonly output?: unknown; readonly summary?: string }[];
};

export type SuperviseDecision = { readonly kind: "done"; readonly finalOutput: unknown } | { readonly kind: "continue"; readonly promptNote?: string };

/** The normalized planner: its private model slot, harness and what its session sees. */
export type PlannerConfig = {
  /** The planner's own model; absent only for a fixed plan. Never one of the execution slots. */
  readonly model?: ModelSlot;
  /** `model.id`, or `fixed-plan` for a fixed plan. */
  readonly modelSlotId: string;
  readonly system?: string;
  readonly harness: Harness;
  /** The harness's `id` when it has one (`workflowHarness@0.2.0`), else `custom`. */
  readonly harnessId: string;
  readonly skills: readonly SkillReference[];
  /** `submit_workflow` revisions the planner gets before `planner_validation_exhausted`. */
  readonly maxWorkflowRevisions: number;
  /** The LWIR of a fixed plan (`defineWorkflow({ plan })`). */
  readonly fixedPlan?: LwirDocument;
  readonly maxOuterCycles: number;
  readonly supervise?: (request: SuperviseRequest) => SuperviseDecision | Promise<SuperviseDecision>;
};

/** The normalized worker: the harness that executes steps and the skills its sessions see. */
export type WorkerConfig = {
  readonly harness: Harness;
  readonly harnessId: string;
  readonly skills: readonly SkillReference[];
};

/**
 * What `defineWorkflow` returns (seed 000): the options normalized to JSON Schema, an LWIR output
 * mode, model slots with final ids, sorted tool names, and the planner/worker configs. Frozen.
 * `TInput`/`TOutput` are the inferred types (type-level only).
 */
export type WorkflowDefinition<TInput = unknown, TOutput = unknown> = {
  readonly kind: "workflow-definition";
  readonly id: string;
  readonly description: string;
  /** JSON Schema of the input (LWIR subset); `true` when the definition gave none. */
  readonly inputSchema: JsonSchema;
  /** The requested output as an LWIR output mode; `{ mode: "json" }` when none was given. */
  readonly output: LwirOutputMode;
  /** The JSON Schema an LWIR's `output.schema` must equal (derived from `output`). */
  readonly outputSchema: JsonSchema;
  /** Execution model slots (what LWIR steps may name). */
  readonly models: readonly ModelSlot[];
  /** Sorted names of the tools the workflow may use (resolved against the run's registry plus `inlineTools`). */
  readonly globalTools: readonly string[];
  /** AI SDK tools given inline in `tools`, as a registry. */
  readonly inlineTools?: ToolRegistry;
  readonly planner: PlannerConfig;
  readonly worker: WorkerConfig;
  readonly memory: ResolvedMemoryConfig;
  readonly bash?: WorkflowBashCapabilities;
  readonly [workflowTypes]?: { readonly input: TInput; readonly output: TOutput };
};

export type WorkflowInput<W> = W extends WorkflowDefinition<infer I, unknown> ? I : never;
export type WorkflowOutput<W> = W extends WorkflowDefinition<unknown, infer O> ? O : never;
