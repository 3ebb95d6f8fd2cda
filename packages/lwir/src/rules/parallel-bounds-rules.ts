import type { FindingList } from "../findings.js";
import { isRecord, ownField } from "./json-shape.js";
import { itemsArraySchemaOf } from "./path-rules.js";
import type { LwirRuleContext } from "./rule-context.js";

/**
 * A parallel step whose `items` schema allows more items than `maxBranches` (its `maxItems` is
 * larger) fails at run time (`runtime_config_error`) on an input its own schemas accept: reported
 * as `parallel.invalid_branches`. Items whose schema sets no `maxItems` are not judged (nothing
 * says how many there can be).
 */
export function checkParallelBounds(context: LwirRuleContext, findings: FindingList): void {
  for (const entry of context.allSteps()) {
    if (entry.uses !== "parallel" || entry.record === undefined) continue;
    const withValue = ownField(entry.record, "with");
    const maxBranches = isRecord(withValue) ? ownField(withValue, "maxBranches") : undefined;
    if (typeof maxBranches !== "number" || !Number.isInteger(maxBranches)) continue;
    const arraySchema = itemsArraySchemaOf(context, entry);
    const maxItems = isRecord(arraySchema) ? arraySchema.maxItems : undefined;
    if (typeof maxItems !== "number" || maxItems <= maxBranches) continue;
    findings.report({
      code: "parallel.invalid_branches",
      path: [...entry.path, "with", "maxBranches"],
      message: `maxBranches is ${maxBranches}, but with.items can hold up to ${maxItems} items (its schema's maxItems), and a run with more items than maxBranches fails: set maxBranches to at least ${maxItems}${maxItems > 100 ? " (at most 100: lower the schema's maxItems)" : ""}.`,
    });
  }
}
