import { isWorkflowDefinition, workflowDefinitionReady, type WorkflowDefinition, type WorkflowInput, type WorkflowOutput } from "@little-stack/authoring";
import { contentId } from "@little-stack/canonical";
import type { ToolRegistry } from "@little-stack/harness";
import type { World } from "@little-stack/local-world";
import type { ModelRegistry } from "@little-stack/models";
import { jsonSchema, tool, type Tool, type ToolExecutionOptions, type ToolSet } from "ai";
import { InvalidOrchestrationOptionsError } from "../errors/orchestrator-errors.js";
import { runWorkflow } from "../run/run-workflow.js";

export type WorkflowToolOptions = {
  readonly world: World;
  /** Where the workflow's tools come from (besides the ones it gives inline). */
  readonly tools?: ToolRegistry | ToolSet;
  /** What the calling model reads (default: the workflow's description). */
  readonly description?: string;
  /** Per call. */
  readonly timeout?: string | number;
  readonly maxOuterCycles?: number;
  readonly modelRegistry?: ModelRegistry;
  /**
   * The run id of one call (default: derived from the workflow id and the AI SDK `toolCallId`).
   * Inside a durable harness session the call id is deterministic, so a re-executed call resumes
   * its run instead of starting another one.
   */
  readonly runIdFor?: (call: { readonly toolCallId: string; readonly input: unknown }) => string;
};

/** The run id a workflow tool call gets by default. */
export function workflowToolRunId(options: { readonly workflowId: string; readonly toolCallId: string }): string {
  return contentId("run", { workflowTool: options.workflowId, toolCallId: options.toolCallId });
}

/**
 * Exposes a workflow as an AI SDK `tool()` with the workflow's input and output schemas (typed
 * from them), so any AI SDK agent or harness session can call it. Each call is one durable
 * `runWorkflow` (compile + execute) whose output is the tool result; a failed run throws its
 * RunFailedError, which the AI SDK reports to the model as a tool error.
 */
export function workflowTool<W extends WorkflowDefinition<any, any>>(workflow: W, options: WorkflowToolOptions): Tool<WorkflowInput<W>, WorkflowOutput<W>> {
  if (!isWorkflowDefinition(workflow)) {
    throw new InvalidOrchestrationOptionsError({ call: "workflowTool", field: "workflow", problem: "is not a workflow definition", fix: "Pass what defineWorkflow({ … }) returns." });
  }
  if (typeof options?.world?.appendEvents !== "function") {
    throw new InvalidOrchestrationOptionsError({ call: "workflowTool", field: "world", problem: "is not a World", fix: "Pass { world: localWorld({ dataDir }) }." });
  }
  const definition = workflow as WorkflowDefinition;
  const description = options.description ?? (definition.description.length > 0 ? definition.description : `Runs the workflow "${definition.id}".`);
  type Input = WorkflowInput<W>;
  type Output = WorkflowOutput<W>;
  return tool<Input, Output>({
    description,
    inputSchema: jsonSchema<Input>(definition.inputSchema as Parameters<typeof jsonSchema>[0]),
    // Lazy: an AI SDK Output.object() output is known only once its schema has resolved.
    outputSchema: jsonSchema<Output>(async () => (await workflowDefinitionReady(definition)).outputSchema as Parameters<typeof jsonSchema>[0] & object),
    execute: async (input: Input, { toolCallId, abortSignal }: ToolExecutionOptions): Promise<Output> => {
      const runId = options.runIdFor?.({ toolCallId, input }) ?? workflowToolRunId({ workflowId: definition.id, toolCallId });
      const result = await runWorkflow(workflow, input, {
        world: options.world,
        runId,
        ...(options.tools === undefined ? {} : { tools: options.tools }),
        ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
        ...(abortSignal === undefined ? {} : { signal: abortSignal }),
        ...(options.maxOuterCycles === undefined ? {} : { maxOuterCycles: options.maxOuterCycles }),
        ...(options.modelRegistry === undefined ? {} : { modelRegistry: options.modelRegistry }),
      });
      return result.output as Output;
    },
  } as unknown as Tool<Input, Output>) as Tool<Input, Output>;
}
