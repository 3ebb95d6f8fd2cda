import type { JsonPathSegment } from "@little-stack/canonical";
import { describeValue, shown, type FindingList } from "../findings.js";
import { hasField, isNonEmptyString, isRecord, ownField, unknownKeys } from "./json-shape.js";
import { LWIR_FIELDS } from "../lwir-fields.js";
import type { LwirRuleContext, StepEntry } from "./rule-context.js";
import { isWholeTemplate } from "./whole-template.js";

const caseFields = new Set(LWIR_FIELDS.decisionCase);

/** lwir.md §2 decision: cases, default, targets in scope, no output. */
export function checkDecisionRules(context: LwirRuleContext, findings: FindingList): void {
  for (const entry of context.allSteps()) {
    if (entry.uses !== "decision" || entry.record === undefined) continue;
    if (hasField(entry.record, "output")) {
      findings.report({
        code: "decision.output_not_allowed",
        path: [...entry.path, "output"],
        message: 'A decision step has no output (its result is always { "chosen": "<target>" }). Remove `output`.',
      });
    }
    const withValue = ownField(entry.record, "with");
    if (!isRecord(withValue)) continue;
    checkCases({ entry, cases: ownField(withValue, "cases"), findings });
    const defaultPath = [...entry.path, "with", "default"];
    const fallback = ownField(withValue, "default");
    if (!isNonEmptyString(fallback)) {
      findings.report({
        code: "decision.default_required",
        path: defaultPath,
        message: `A decision needs with.default, the target taken when no case matches: a step id of the same list or "end" (got ${describeValue(fallback)}).`,
      });
    } else {
      checkTarget({ entry, target: fallback, path: defaultPath, findings });
    }
  }
}

function checkCases(options: { entry: StepEntry; cases: unknown; findings: FindingList }): void {
  const { entry, cases, findings } = options;
  const path: JsonPathSegment[] = [...entry.path, "with", "cases"];
  const report = (at: readonly JsonPathSegment[], message: string): void =>
    findings.report({ code: "decision.case_invalid", path: at, message });
  if (!Array.isArray(cases)) {
    report(path, `with.cases must be an array of { when, to } (got ${describeValue(cases)}).`);
    return;
  }
  cases.forEach((decisionCase, index) => {
    const casePath = [...path, index];
    if (!isRecord(decisionCase)) {
      report(casePath, `A decision case must be an object { when, to } (got ${describeValue(decisionCase)}).`);
      return;
    }
    for (const key of unknownKeys(decisionCase, caseFields)) {
      report([...casePath, key], `Unknown decision case field \`${shown(key)}\`: a case has only \`when\` and \`to\`.`);
    }
    const when = ownField(decisionCase, "when");
    if (!isWholeTemplate(when)) {
      report(
        [...casePath, "when"],
        `A case's \`when\` must be exactly one template "{{ expression }}" with nothing around it (got ${describeValue(when)}).`,
      );
    }
    const to = ownField(decisionCase, "to");
    if (!isNonEmptyString(to)) {
      report([...casePath, "to"], `A case's \`to\` must be a step id of the same list or "end" (got ${describeValue(to)}).`);
    } else {
      checkTarget({ entry, target: to, path: [...casePath, "to"], findings });
    }
  });
}

function checkTarget(options: {
  entry: StepEntry;
  target: string;
  path: readonly JsonPathSegment[];
  findings: FindingList;
}): void {
  const { entry, target, path, findings } = options;
  if (target === "end" || entry.scope.byId.has(target) || entry.scope.invalidIds.has(target)) return;
  const where = entry.scope.parallel === undefined ? "the top-level steps" : "this parallel body";
  findings.report({
    code: "decision.target_not_in_scope",
    path,
    message: `Decision target "${shown(target)}" is not a step of ${where}; use a step id of the same list or "end".`,
  });
}

/** Targets of a decision step that name steps of its list (not "end"), with their paths. */
export function decisionTargets(entry: StepEntry): { id: string; path: JsonPathSegment[] }[] {
  const withValue = entry.record === undefined ? undefined : ownField(entry.record, "with");
  if (entry.uses !== "decision" || !isRecord(withValue)) return [];
  const targets: { id: string; path: JsonPathSegment[] }[] = [];
  const cases = ownField(withValue, "cases");
  if (Array.isArray(cases)) {
    cases.forEach((decisionCase, index) => {
      const to = isRecord(decisionCase) ? ownField(decisionCase, "to") : undefined;
      if (typeof to === "string" && entry.scope.byId.has(to)) {
        targets.push({ id: to, path: [...entry.path, "with", "cases", index, "to"] });
      }
    });
  }
  const fallback = ownField(withValue, "default");
  if (typeof fallback === "string" && entry.scope.byId.has(fallback)) {
    targets.push({ id: fallback, path: [...entry.path, "with", "default"] });
  }
  return targets;
}
