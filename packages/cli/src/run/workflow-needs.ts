import type { LwirDocument, LwirStep } from "@little-stack/lwir";

/** The model slots and tools a workflow's steps use (ai.generate models, fixer models, tool.call tools). */
export function workflowNeeds(lwir: LwirDocument): { readonly modelSlots: string[]; readonly tools: string[] } {
  const modelSlots = new Set<string>();
  const tools = new Set<string>();
  const visit = (steps: readonly LwirStep[]): void => {
    for (const step of steps) {
      if (step.uses === "ai.generate") modelSlots.add(step.with.model);
      if (step.uses === "tool.call") tools.add(step.with.tool);
      if ("onFailure" in step && step.onFailure?.fixer !== undefined) modelSlots.add(step.onFailure.fixer.model);
      if (step.uses === "parallel") visit(step.steps);
    }
  };
  visit(lwir.steps);
  return { modelSlots: [...modelSlots].sort(), tools: [...tools].sort() };
}
