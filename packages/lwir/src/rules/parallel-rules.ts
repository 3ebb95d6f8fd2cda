import type { JsonPathSegment } from "@little-stack/canonical";
import { describeValue, shown, type FindingList, type LwirFindingCode } from "../findings.js";
import { hasField, isIntegerInRange, isRecord, listOf, ownField, unknownKeys, type JsonRecord } from "./json-shape.js";
import { LWIR_FIELDS } from "../lwir-fields.js";
import { checkParallelBounds } from "./parallel-bounds-rules.js";
import { stepIdProblem, type LwirRuleContext, type StepEntry } from "./rule-context.js";
import { isWholeTemplate, referencesRoot, wholeTemplate } from "./whole-template.js";

const withFields = new Set(LWIR_FIELDS.parallelWith);
const fanInFields = new Set(LWIR_FIELDS.parallelFanIn);

type Report = (options: { code: LwirFindingCode; path: readonly JsonPathSegment[]; message: string }) => void;

/** lwir.md §2 parallel: configuration, body, no nesting. */
export function checkParallelRules(context: LwirRuleContext, findings: FindingList): void {
  const report: Report = (finding) => findings.report(finding);
  for (const entry of context.allSteps()) {
    if (entry.uses !== "parallel" || entry.record === undefined) continue;
    if (entry.scope.parallel !== undefined) {
      report({
        code: "parallel.nested_unsupported",
        path: [...entry.path, "uses"],
        message: `Parallel steps cannot be nested: this one is inside the body of "${shown(entry.scope.parallel.id ?? "?")}". Flatten it into the outer list.`,
      });
      continue;
    }
    const body = ownField(entry.record, "steps");
    if (!Array.isArray(body) || body.length === 0) {
      report({
        code: "parallel.missing_steps",
        path: [...entry.path, "steps"],
        message: `A parallel step needs \`steps\`, the non-empty list of steps each branch runs (got ${describeValue(body)}).`,
      });
    }
    const path: JsonPathSegment[] = [...entry.path, "with"];
    const withValue = ownField(entry.record, "with");
    if (!isRecord(withValue)) {
      report({
        code: "parallel.invalid",
        path,
        message: `A parallel step needs \`with\`: { items, itemKey, cardinality, maxBranches, maxConcurrency, failureMode, fanIn } (got ${describeValue(withValue)}).`,
      });
      continue;
    }
    for (const key of unknownKeys(withValue, withFields)) {
      report({
        code: "parallel.invalid",
        path: [...path, key],
        message: `Unknown parallel field with.${key}: a parallel step takes ${listOf(withFields)}.`,
      });
    }
    checkTemplates({ withValue, path, report });
    checkLimits({ withValue, path, report });
    checkFanIn({ entry, withValue, path, report });
  }
  checkParallelBounds(context, findings);
}

function checkTemplates(options: { withValue: JsonRecord; path: JsonPathSegment[]; report: Report }): void {
  const { withValue, path, report } = options;
  const items = ownField(withValue, "items");
  if (!isWholeTemplate(items)) {
    report({
      code: "parallel.invalid_items",
      path: [...path, "items"],
      message: `with.items must be exactly one template resolving to an array, e.g. "{{ input.candidates }}" (got ${describeValue(items)}).`,
    });
  }
  const itemKey = ownField(withValue, "itemKey");
  const keyTemplate = wholeTemplate(itemKey);
  if (!keyTemplate.whole) {
    report({
      code: "parallel.invalid_item_key",
      path: [...path, "itemKey"],
      message: `with.itemKey must be exactly one template over \`item\`, e.g. "{{ item.id }}" (got ${describeValue(itemKey)}).`,
    });
  } else if (keyTemplate.expression !== undefined && !referencesRoot(keyTemplate.expression, "item")) {
    report({
      code: "parallel.invalid_item_key",
      path: [...path, "itemKey"],
      message: `with.itemKey must be computed from \`item\` (every branch would get the same key otherwise), e.g. "{{ item.id }}" (got ${describeValue(itemKey)}).`,
    });
  }
}

function checkLimits(options: { withValue: JsonRecord; path: JsonPathSegment[]; report: Report }): void {
  const { withValue, path, report } = options;
  const cardinality = ownField(withValue, "cardinality");
  const cardinalityValid =
    isRecord(cardinality) && Object.keys(cardinality).length === 1 && ownField(cardinality, "kind") === "matches_items";
  if (!cardinalityValid) {
    report({
      code: "parallel.invalid_cardinality",
      path: [...path, "cardinality"],
      message: `with.cardinality must be { "kind": "matches_items" } (one branch per item).`,
    });
  }
  const maxBranches = ownField(withValue, "maxBranches");
  const branchesValid = isIntegerInRange(maxBranches, { min: 1, max: 100 });
  if (!branchesValid) {
    report({
      code: "parallel.invalid_branches",
      path: [...path, "maxBranches"],
      message: `with.maxBranches must be an integer from 1 to 100 (got ${describeValue(maxBranches)}).`,
    });
  }
  const ceiling = branchesValid ? maxBranches : 100;
  const maxConcurrency = ownField(withValue, "maxConcurrency");
  if (!isIntegerInRange(maxConcurrency, { min: 1, max: ceiling })) {
    report({
      code: "parallel.invalid_concurrency",
      path: [...path, "maxConcurrency"],
      message: `with.maxConcurrency must be an integer from 1 to maxBranches (${ceiling}); got ${describeValue(maxConcurrency)}.`,
    });
  }
  const failureMode = ownField(withValue, "failureMode");
  if (failureMode !== "fail_fast" && failureMode !== "all_settled") {
    report({
      code: "parallel.invalid_failure_mode",
      path: [...path, "failureMode"],
      message: `with.failureMode must be "fail_fast" or "all_settled" (got ${describeValue(failureMode)}).`,
    });
  }
}

function checkFanIn(options: { entry: StepEntry; withValue: JsonRecord; path: JsonPathSegment[]; report: Report }): void {
  const { entry, withValue, path, report } = options;
  const fanInPath = [...path, "fanIn"];
  const fanIn = ownField(withValue, "fanIn");
  if (!isRecord(fanIn)) {
    report({
      code: "parallel.invalid_fan_in",
      path: fanInPath,
      message: `with.fanIn must be an object { order: "input" | "itemKey", output: "array", outputStep? } (got ${describeValue(fanIn)}).`,
    });
    return;
  }
  for (const key of unknownKeys(fanIn, fanInFields)) {
    report({
      code: "parallel.invalid_fan_in",
      path: [...fanInPath, key],
      message: `Unknown fanIn field \`${shown(key)}\`: fanIn has only order, output and outputStep.`,
    });
  }
  const order = ownField(fanIn, "order");
  if (order !== "input" && order !== "itemKey") {
    report({
      code: "parallel.invalid_fan_in",
      path: [...fanInPath, "order"],
      message: `fanIn.order must be "input" or "itemKey" (got ${describeValue(order)}).`,
    });
  }
  if (ownField(fanIn, "output") !== "array") {
    report({
      code: "parallel.invalid_fan_in",
      path: [...fanInPath, "output"],
      message: `fanIn.output must be "array" (got ${describeValue(ownField(fanIn, "output"))}).`,
    });
  }
  // Without a body the missing body is the finding; outputStep cannot be resolved against it.
  const body = entry.record === undefined ? undefined : ownField(entry.record, "steps");
  if (!hasField(fanIn, "outputStep") || !Array.isArray(body) || body.length === 0) return;
  const outputStep = ownField(fanIn, "outputStep");
  const target =
    typeof outputStep === "string"
      ? body.find((step) => isRecord(step) && ownField(step, "id") === outputStep)
      : undefined;
  // A step whose id is itself invalid has its own finding; naming it here is not a second one.
  const namesInvalidStep = isRecord(target) && typeof outputStep === "string" && stepIdProblem(outputStep) !== undefined;
  if (!namesInvalidStep && (!isRecord(target) || ownField(target, "uses") === "decision")) {
    report({
      code: "parallel.fan_in_output_step_invalid",
      path: [...fanInPath, "outputStep"],
      message: `fanIn.outputStep must name a non-decision step of this parallel body (got ${describeValue(outputStep)}).`,
    });
  }
}
