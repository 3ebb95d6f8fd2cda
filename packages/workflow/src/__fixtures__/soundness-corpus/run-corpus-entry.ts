import type { LanguageModelV3 } from "@ai-sdk/provider";
import { createSchemaAnsweringModel, createScriptedModel, type ScriptedModel } from "@little-stack/testing";
import { defineWorkflow, localWorld, model, runWorkflow, RunFailedError, type RunResult, type ToolRegistry, type WorkflowDefinition } from "../../index.js";
import { deliveryOf, type CorpusEntry } from "./corpus-entry.js";

/** How a corpus run ended. */
export type CorpusOutcome =
  | { readonly kind: "completed"; readonly result: RunResult }
  | { readonly kind: "failed"; readonly error: RunFailedError }
  /** defineWorkflow refused the definition (a fixed plan that does not validate or bind), or runWorkflow threw something else. */
  | { readonly kind: "threw"; readonly error: unknown };

export type CorpusRun = {
  readonly outcome: CorpusOutcome;
  readonly delivery: "fixed" | "planner";
  /** The scripted planner (planner delivery only): one call means the plan was accepted at once. */
  readonly planner?: ScriptedModel;
  /** Every model slot's model, by slot id. */
  readonly models: ReadonlyMap<string, LanguageModelV3 & { readonly callCount: number }>;
  /** The locked LWIR (from WorkflowVersionRegistered), once compiling succeeded. */
  readonly lockedPlan?: unknown;
  /** The workflow that ran (for binding checks). */
  readonly workflow?: WorkflowDefinition;
  readonly tools?: ToolRegistry;
};

/**
 * Runs one corpus entry the way a user would: `defineWorkflow` (a fixed plan, or a scripted
 * planner that submits the plan once) and `runWorkflow` on a real local world in `dataDir`, every
 * model slot answered by `createSchemaAnsweringModel` (or its script).
 */
export async function runCorpusEntry(entry: CorpusEntry, dataDir: string): Promise<CorpusRun> {
  const delivery = deliveryOf(entry);
  const definition = entry.definition;
  const models = new Map<string, LanguageModelV3 & { readonly callCount: number }>();
  for (const slot of definition.models) {
    models.set(slot.id, slot.script === undefined ? createSchemaAnsweringModel({ modelId: slot.id }) : createScriptedModel({ script: slot.script, modelId: slot.id }));
  }
  const planner = delivery === "planner" ? createScriptedModel({ script: [{ toolCalls: [{ toolName: "submit_workflow", args: { lwir: entry.plan } }] }], modelId: "planner" }) : undefined;
  const tools = definition.tools?.();
  let workflow: WorkflowDefinition;
  try {
    workflow = defineWorkflow({
      id: definition.id,
      ...(definition.description === undefined ? {} : { description: definition.description }),
      input: definition.input as never,
      output: definition.output as never,
      models: definition.models.map((slot) => model(models.get(slot.id)!, { id: slot.id, ...(slot.description === undefined ? {} : { description: slot.description }) })),
      ...(tools === undefined ? {} : { tools }),
      ...(planner === undefined ? { plan: entry.plan as never } : { planner: { model: planner, system: `You design the workflow ${definition.id}.` } }),
    }) as WorkflowDefinition;
  } catch (error) {
    return { outcome: { kind: "threw", error }, delivery, models, ...(planner === undefined ? {} : { planner }) };
  }
  const world = localWorld({ dataDir });
  const common = { delivery, models, workflow, ...(planner === undefined ? {} : { planner }), ...(tools === undefined ? {} : { tools }) };
  try {
    const result = await runWorkflow(workflow, entry.input as never, { world, timeout: "60s" });
    return { ...common, outcome: { kind: "completed", result }, lockedPlan: lockedPlanIn(result.events) };
  } catch (error) {
    if (error instanceof RunFailedError) {
      return { ...common, outcome: { kind: "failed", error }, lockedPlan: lockedPlanIn(error.result?.events ?? []) };
    }
    return { ...common, outcome: { kind: "threw", error } };
  } finally {
    await world.close();
  }
}

function lockedPlanIn(events: readonly { readonly type: string; readonly payload: unknown }[]): unknown {
  const registered = events.find((event) => event.type === "WorkflowVersionRegistered");
  return (registered?.payload as { lwir?: unknown } | undefined)?.lwir;
}

/** One line about how a run ended, for assertion messages. */
export function describeOutcome(outcome: CorpusOutcome): string {
  switch (outcome.kind) {
    case "completed":
      return `completed with ${JSON.stringify(outcome.result.output).slice(0, 300)}`;
    case "failed":
      return `failed: ${outcome.error.causeCode} at ${outcome.error.failedStepPath ?? "(run)"}: ${outcome.error.message}`;
    case "threw":
      return `threw ${outcome.error instanceof Error ? `${outcome.error.name}: ${outcome.error.message}` : String(outcome.error)}`;
  }
}
