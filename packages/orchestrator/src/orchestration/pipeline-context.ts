import type { WorkflowDefinition } from "@little-stack/authoring";
import type { ToolRegistry } from "@little-stack/harness";
import type { World } from "@little-stack/local-world";
import type { ModelRegistry } from "@little-stack/models";
import type { RunEventDispatcher, WorkflowVersionLike } from "@little-stack/runtime";
import type { Deadline } from "../run/deadline.js";
import type { SubRunSlots } from "./semaphore.js";

/** A workflow of the pipeline with the tools it runs with and its definition hash. */
export type PipelineWorkflow = {
  readonly definition: WorkflowDefinition;
  readonly tools: ToolRegistry;
  readonly workflowDefinitionHash: string;
};

/** A version plan_workflow locked in this pipeline run. */
export type PlannedVersion = {
  readonly workflowId: string;
  readonly planRunId: string;
  readonly workflowVersion: WorkflowVersionLike;
};

/** What the orchestrator tools share during one pipeline run. */
export type PipelineContext = {
  readonly pipelineRunId: string;
  readonly world: World;
  readonly workflows: ReadonlyMap<string, PipelineWorkflow>;
  readonly planned: Map<string, PlannedVersion>;
  /** Plans in progress by plan run id. */
  readonly planning: Map<string, Promise<PlannedVersion>>;
  /** plan_workflow calls recorded before a restart, by version id: replayed on demand (no model call). */
  readonly recordedPlans: Map<string, { readonly workflowId: string; readonly input: unknown; readonly planRunId: string }>;
  readonly slots: SubRunSlots;
  readonly deadline: Deadline;
  /** Host directory of the pipeline scratch (`/mnt/scratch/own/` of the orchestrator). */
  readonly scratchHostPath: string;
  readonly scratchMountPath: string;
  readonly modelRegistry?: ModelRegistry;
  /** Who watches the pipeline live (its `world` then reports to it too). */
  readonly watcher?: RunEventDispatcher;
};
