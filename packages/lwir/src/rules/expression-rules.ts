import type { FindingList } from "../findings.js";
import type { LwirRuleContext } from "./rule-context.js";

/** lwir.md §6: every string with templates in `with` / `input` must pass static validation. */
export function checkExpressionRules(context: LwirRuleContext, findings: FindingList): void {
  for (const entry of context.allSteps()) {
    for (const use of context.templatesOf(entry)) {
      if (use.problems.length === 0) continue;
      findings.report({
        code: "expression.invalid",
        path: use.path,
        message: `Invalid expression: ${use.problems.join("; ")}.`,
      });
    }
  }
}
