import type { LwirDocument, LwirStep } from "@little-stack/lwir";
import type { UsageTotals } from "@little-stack/models";
import type { RunState } from "@little-stack/runtime";

/** One row of `little report`: a step path and what its model calls used. */
export type StepUsageRow = {
  readonly stepPath: string;
  /** `provider:modelId` pinned for the step's model slot, the slot id when not pinned, null without a model. */
  readonly model: string | null;
  readonly modelCalls: number;
  readonly inputTokens: number;
  readonly cachedInputTokens: number;
  readonly outputTokens: number;
  readonly reasoningTokens: number;
  /** null = unpriced (not free); 0 only when the step made no model call. */
  readonly costUsd: number | null;
  readonly unpricedCalls: number;
};

export type UsageReport = {
  readonly runId: string;
  readonly status: string;
  readonly steps: readonly StepUsageRow[];
  readonly totals: UsageTotals & { readonly modelCalls: number };
};

/** Per-step usage and dollars of a run, from its materialized state. */
export function usageReport(state: RunState): UsageReport {
  const slots = modelSlotsByStepId(state.lwir as LwirDocument | undefined);
  const pinned = state.capabilities?.models ?? {};
  const steps = Object.values(state.steps).map((step): StepUsageRow => {
    const slot = slots.get(step.stepId);
    return {
      stepPath: step.stepPath,
      model: slot === undefined ? null : (pinned[slot] ?? slot),
      modelCalls: step.modelCalls,
      inputTokens: step.usage.inputTokens,
      cachedInputTokens: step.usage.cachedInputTokens,
      outputTokens: step.usage.outputTokens,
      reasoningTokens: step.usage.reasoningTokens,
      costUsd: step.usage.costUsd,
      unpricedCalls: step.usage.unpricedCalls,
    };
  });
  const modelCalls = state.usage.pricedCalls + state.usage.unpricedCalls;
  const outside = outsideSteps(state.usage, steps);
  return { runId: state.runId, status: state.status, steps: outside === undefined ? steps : [...steps, outside], totals: { ...state.usage, modelCalls } };
}

/** The name of the row for model calls no step made: the planner's session in a runWorkflow run. */
export const outsideStepsRow = "(outside steps)";

/**
 * Model calls of the run that belong to no step (the planner's, when runWorkflow compiled the
 * workflow inside the run), as the run totals minus the steps' sums; undefined when there are none.
 */
function outsideSteps(totals: UsageTotals, steps: readonly StepUsageRow[]): StepUsageRow | undefined {
  const sum = (pick: (step: StepUsageRow) => number): number => steps.reduce((total, step) => total + pick(step), 0);
  const modelCalls = totals.pricedCalls + totals.unpricedCalls - sum((step) => step.modelCalls);
  if (modelCalls <= 0) return undefined;
  const unpricedCalls = totals.unpricedCalls - sum((step) => step.unpricedCalls);
  const pricedStepCost = sum((step) => step.costUsd ?? 0);
  const costUsd = totals.costUsd === null || totals.pricedCalls - (sum((step) => step.modelCalls) - sum((step) => step.unpricedCalls)) <= 0 ? null : roundDollars(totals.costUsd - pricedStepCost);
  return {
    stepPath: outsideStepsRow,
    model: null,
    modelCalls,
    inputTokens: totals.inputTokens - sum((step) => step.inputTokens),
    cachedInputTokens: totals.cachedInputTokens - sum((step) => step.cachedInputTokens),
    outputTokens: totals.outputTokens - sum((step) => step.outputTokens),
    reasoningTokens: totals.reasoningTokens - sum((step) => step.reasoningTokens),
    costUsd,
    unpricedCalls,
  };
}

/** Step id → the model slot its model calls use (ai.generate's model, else its fixer's). */
function modelSlotsByStepId(lwir: LwirDocument | undefined): Map<string, string> {
  const slots = new Map<string, string>();
  const visit = (steps: readonly LwirStep[]): void => {
    for (const step of steps) {
      if (step.uses === "ai.generate") slots.set(step.id, step.with.model);
      else if ("onFailure" in step && step.onFailure?.fixer !== undefined) slots.set(step.id, step.onFailure.fixer.model);
      if (step.uses === "parallel") visit(step.steps);
    }
  };
  if (lwir !== undefined && Array.isArray(lwir.steps)) visit(lwir.steps);
  return slots;
}

/** Dollars as the report prints them: `n/a` when unpriced (never 0), `-` without model calls. */
export function formatDollars(options: { costUsd: number | null; modelCalls: number; unpricedCalls: number }): string {
  if (options.modelCalls === 0) return "-";
  if (options.costUsd === null) return "n/a";
  const amount = `$${options.costUsd < 0.01 ? options.costUsd.toFixed(6) : options.costUsd.toFixed(4)}`;
  return options.unpricedCalls > 0 ? `${amount} + n/a (${options.unpricedCalls} unpriced)` : amount;
}

/** A difference of float dollar sums, without binary noise (totals are exact to the pico-dollar). */
function roundDollars(value: number): number {
  return Number(value.toFixed(12));
}
