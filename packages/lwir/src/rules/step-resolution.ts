import type { LwirRuleContext, StepEntry } from "./rule-context.js";

/**
 * How a step id seen from one step resolves (lwir.md §4): a sibling of the same list; for a
 * parallel body, also a step the parallel step itself needs; an outer step the parallel does not
 * need (visible only once declared there); or nothing.
 */
export type StepResolution =
  | { readonly kind: "sibling"; readonly target: StepEntry }
  | { readonly kind: "enclosing_needs"; readonly target: StepEntry }
  | { readonly kind: "outer_undeclared"; readonly target: StepEntry }
  | { readonly kind: "missing" }
  /** The id of a step whose id is itself invalid: that step's finding covers it. */
  | { readonly kind: "invalid_id" };

export function resolveStepId(options: {
  readonly context: LwirRuleContext;
  readonly from: StepEntry;
  readonly stepId: string;
}): StepResolution {
  const { context, from, stepId } = options;
  const sibling = from.scope.byId.get(stepId);
  if (sibling !== undefined) return { kind: "sibling", target: sibling };
  if (from.scope.invalidIds.has(stepId)) return { kind: "invalid_id" };
  const parallel = from.scope.parallel;
  const outer = parallel === undefined ? undefined : context.scopes[0]?.byId.get(stepId);
  if (parallel === undefined || outer === undefined) {
    const outerInvalid = parallel !== undefined && context.scopes[0]?.invalidIds.has(stepId) === true;
    return outerInvalid ? { kind: "invalid_id" } : { kind: "missing" };
  }
  const declared = parallel.needs.some((need) => need.id === stepId);
  return declared ? { kind: "enclosing_needs", target: outer } : { kind: "outer_undeclared", target: outer };
}
