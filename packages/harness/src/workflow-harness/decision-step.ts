import { evaluateTemplateString, isTruthy, type LwirDecisionStep } from "@little-stack/lwir";
import type { WorkflowHarnessContext } from "./workflow-harness-context.js";

/**
 * decision: the first case whose `when` is truthy wins, else `default`; no model, no tools. With
 * an expression context each `when` template is evaluated (lazily: later cases are never
 * evaluated); without one each `when` is read as its already-resolved value.
 */
export function runDecisionStep(options: { readonly step: LwirDecisionStep; readonly ctx: WorkflowHarnessContext }): { chosen: string } {
  const { step, ctx } = options;
  const expressions = ctx.expressionContext === undefined ? undefined : Object.assign({}, ctx.expressionContext, { step });
  for (const entry of step.with.cases) {
    const when: unknown = entry.when;
    const value = expressions !== undefined && typeof when === "string" ? evaluateTemplateString(when, expressions) : when;
    if (isTruthy(value)) return { chosen: entry.to };
  }
  return { chosen: step.with.default };
}
